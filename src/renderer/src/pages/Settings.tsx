import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import type { CheckKeyOutput, ModelSettings, ModelSettingsView } from '../../../shared/contracts/model-settings';
import { type AlertSettings, EVENT_KINDS, type EventKind } from '../../../shared/contracts/events';
import { KIND_LABELS, muteInWords, parseThresholdPoints, thresholdText } from '../lib/alerts';
import { Loadable } from '../components/States';
import { desk } from '../lib/desk';
import { isUnauthorized, plainOr, userMessage } from '../lib/errors';
import { formatDay } from '../lib/format';
import { useSession } from '../lib/session';
import {
  MAX_COST_PER_DAY_MICRO_USD, TOKENS_PER_TURN, cacheShare, formatMicroUsd, formatTokens, keySourceInWords, microUsdToDollarsText,
  parseDollars, parseTokensPerTurn,
} from '../lib/usage-format';
import { useDeskQuery } from '../lib/useQuery';

/**
 * The assistant's settings: the Anthropic API key that gives it Claude as its planner, which
 * models it uses, what a turn and a day may spend, and what today's turns used. The key goes
 * to main once and is never shown again: it lives only in the password field until Save, is
 * not React state, is not a mutation's variables (TanStack would keep those), and the field has
 * no `name`, so even a form that submitted itself could not put it in a URL.
 */

const SETTINGS_KEY = ['settings', 'model'] as const;

function modelSettingsQuery() {
  return queryOptions({ queryKey: SETTINGS_KEY, queryFn: () => desk.settings.model.query() });
}

export function SettingsPage() {
  const state = useDeskQuery(modelSettingsQuery());
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <Loadable state={state}>{(view) => <ClaudeSettings view={view} />}</Loadable>
      <AlertsSection />
    </section>
  );
}

/** One call's progress and its failure in words; an UNAUTHORIZED answer ends the session, as queries do. */
function useCall() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async <T,>(call: () => Promise<T>, fallback: string): Promise<T | null> => {
    setBusy(true);
    setError(null);
    try {
      return await call();
    } catch (e) {
      if (isUnauthorized(e)) useSession.getState().expired();
      setError(userMessage(e, fallback));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** Puts main's answer in the cache the page reads, so every section shows it at once. */
function useShowView() {
  const queryClient = useQueryClient();
  return (view: ModelSettingsView) => queryClient.setQueryData(SETTINGS_KEY, view);
}

function ClaudeSettings({ view }: { view: ModelSettingsView }) {
  return (
    <section className="card settings" aria-labelledby="claude-title" data-testid="settings-claude">
      <h2 id="claude-title">Claude assistant</h2>
      <p className="muted settings-intro">
        With an Anthropic API key, the assistant plans its answers with Claude. Without one, it answers offline with its built-in rules.
      </p>
      <ApiKey view={view} />
      <Models view={view} />
      <Budgets settings={view.settings} />
      <UsageToday view={view} />
    </section>
  );
}

/** What main accepts (setApiKeyInput), checked here so a wrong paste is explained before it is sent. */
function keyProblem(key: string): string | null {
  if (key === '') return 'Paste your Anthropic API key first.';
  if (key.length < 20) return 'That is too short to be an API key.';
  if (key.length > 400) return 'That is too long to be an API key.';
  if (!/^[\x21-\x7e]+$/.test(key)) return 'An API key has no spaces or special characters.';
  return null;
}

function ApiKey({ view }: { view: ModelSettingsView }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const show = useShowView();
  const queryClient = useQueryClient();
  const save = useCall();
  const check = useCall();
  const remove = useCall();
  const [checked, setChecked] = useState<CheckKeyOutput | null>(null);
  const [saved, setSaved] = useState(false);
  const { present, source, storage, storageNote } = view.key;
  const fromEnvironment = source === 'environment';

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    const input = inputRef.current;
    if (!input || save.busy) return;
    const key = input.value.trim();
    // Cleared before the call: whatever happens next, the page no longer holds the key.
    input.value = '';
    setSaved(false);
    setChecked(null);
    const problem = keyProblem(key);
    if (problem) {
      save.setError(problem);
      return;
    }
    const next = await save.run(() => desk.settings.setApiKey.mutate({ key }), 'The key could not be saved. Try again.');
    if (next) {
      show(next);
      setSaved(true);
    }
  };

  const onCheck = async () => {
    setChecked(null);
    setSaved(false);
    const result = await check.run(() => desk.settings.checkKey.mutate(), 'The key could not be checked. Try again.');
    if (!result) return;
    setChecked(result);
    // A working key lists the models it may use: the selects offer those from now on.
    if (result.ok) void queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
  };

  const onRemove = async () => {
    setChecked(null);
    setSaved(false);
    const next = await remove.run(() => desk.settings.deleteApiKey.mutate(), 'The key could not be removed. Try again.');
    if (next) show(next);
  };

  return (
    <div className="settings-block" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>API key</h3>
      <p className="settings-status" data-testid="settings-key-status" data-present={present} data-source={source ?? undefined}>
        {present && source ? `A key is stored in ${keySourceInWords(source)}.` : 'No key: the assistant answers offline.'}
      </p>
      {storage === null ? (
        <p className="muted settings-note" data-testid="settings-storage-note">{plainOr(storageNote, 'No store on this computer can keep a key.')}</p>
      ) : (
        <p className="muted settings-note">A key you save is kept in {keySourceInWords(storage)}. It is never shown again.</p>
      )}
      <form className="settings-row" autoComplete="off" noValidate onSubmit={(e) => void onSave(e)}>
        <label htmlFor={`${id}-key`}>Anthropic API key</label>
        {/* No name, no value in state: see the note at the top of this file. */}
        <input ref={inputRef} id={`${id}-key`} type="password" autoComplete="off" spellCheck={false} autoCapitalize="off"
          autoCorrect="off" placeholder={present ? 'Paste a new key to replace it' : 'sk-ant-…'} maxLength={400}
          data-testid="settings-key-input" disabled={storage === null} aria-describedby={`${id}-save-result`}
          aria-invalid={save.error !== null} />
        <button type="submit" className="primary" data-testid="settings-key-save" disabled={save.busy || storage === null}
          aria-busy={save.busy}>Save key</button>
        <span id={`${id}-save-result`} className="settings-result" aria-live="polite">
          {save.error && <span className="error" role="alert" data-testid="settings-key-error">{save.error}</span>}
          {saved && <span className="settings-ok">Saved.</span>}
        </span>
      </form>
      <div className="settings-row">
        <button type="button" data-testid="settings-key-check" disabled={!present || check.busy} aria-busy={check.busy}
          onClick={() => void onCheck()}>Check key</button>
        <button type="button" data-testid="settings-key-remove" disabled={!present || fromEnvironment || remove.busy} aria-busy={remove.busy}
          title={fromEnvironment ? 'This key comes from ANTHROPIC_API_KEY: unset it and restart the app to remove it.' : undefined}
          onClick={() => void onRemove()}>Remove key</button>
        <span className="settings-result" aria-live="polite" data-testid="settings-key-result">
          {check.busy && <span className="muted">Checking…</span>}
          {checked?.ok === true && (
            <span className="settings-ok">Key works — {checked.models.length} {checked.models.length === 1 ? 'model' : 'models'} available</span>
          )}
          {checked?.ok === false && <span className="error" role="alert">{plainOr(checked.reason, 'The key did not work.')}</span>}
          {check.error && <span className="error" role="alert">{check.error}</span>}
          {remove.error && <span className="error" role="alert">{remove.error}</span>}
        </span>
      </div>
    </div>
  );
}

type ModelField = 'fastModel' | 'strongModel';

function Models({ view }: { view: ModelSettingsView }) {
  const id = useId();
  const show = useShowView();
  const update = useCall();
  // The choice shows at once; main's answer (or the failure) replaces it.
  const [pending, setPending] = useState<Partial<Record<ModelField, string>>>({});

  const choose = async (field: ModelField, model: string) => {
    setPending((p) => ({ ...p, [field]: model }));
    const next = await update.run(() => desk.settings.update.mutate(field === 'fastModel' ? { fastModel: model } : { strongModel: model }), 'The model could not be changed. Try again.');
    if (next) show(next);
    setPending((p) => {
      const rest = { ...p };
      delete rest[field];
      return rest;
    });
  };

  const select = (field: ModelField, label: string, hint: string) => {
    const value = pending[field] ?? view.settings[field];
    // A model chosen earlier that the list no longer names stays selectable, not silently swapped.
    const models = view.models.includes(view.settings[field]) ? view.models : [view.settings[field], ...view.models];
    return (
      <div className="settings-row">
        <label htmlFor={`${id}-${field}`}>{label}</label>
        <select id={`${id}-${field}`} value={value} disabled={update.busy} data-testid={`settings-${field}`}
          aria-describedby={`${id}-${field}-hint`} onChange={(e) => void choose(field, e.target.value)}>
          {models.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
        <span id={`${id}-${field}-hint`} className="muted settings-note">{hint}</span>
      </div>
    );
  };

  return (
    <div className="settings-block" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Models</h3>
      {select('fastModel', 'Model for reads', 'Fast and cheap: answers questions about your book.')}
      {select('strongModel', 'Model for changes', 'Plans proposals, and requests the offline rules are unsure of.')}
      {update.error && <p className="error settings-result" role="alert" data-testid="settings-models-error">{update.error}</p>}
    </div>
  );
}

function Budgets({ settings }: { settings: ModelSettings }) {
  const id = useId();
  const show = useShowView();
  const update = useCall();
  const [tokens, setTokens] = useState(() => String(settings.maxTokensPerTurn));
  const [dollars, setDollars] = useState(() => microUsdToDollarsText(settings.maxCostPerDayMicroUsd));
  const [problems, setProblems] = useState<{ tokens?: string; dollars?: string }>({});
  const [saved, setSaved] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const t = parseTokensPerTurn(tokens);
    const d = parseDollars(dollars);
    setProblems({ ...(!t.ok && { tokens: t.reason }), ...(!d.ok && { dollars: d.reason }) });
    // Both or nothing: a half-saved pair of budgets would be a surprise.
    if (!t.ok || !d.ok) return;
    const next = await update.run(
      () => desk.settings.update.mutate({ maxTokensPerTurn: t.value, maxCostPerDayMicroUsd: d.value }),
      'The budgets could not be saved. Try again.',
    );
    if (!next) return;
    show(next);
    setTokens(String(next.settings.maxTokensPerTurn));
    setDollars(microUsdToDollarsText(next.settings.maxCostPerDayMicroUsd));
    setSaved(true);
  };

  return (
    <form className="settings-block" aria-labelledby={`${id}-title`} noValidate onSubmit={(e) => void onSubmit(e)}>
      <h3 id={`${id}-title`}>Budgets</h3>
      <div className="settings-row">
        <label htmlFor={`${id}-tokens`}>Tokens per turn</label>
        <input id={`${id}-tokens`} type="number" inputMode="numeric" min={TOKENS_PER_TURN.min} max={TOKENS_PER_TURN.max} step={1}
          value={tokens} data-testid="settings-tokens" aria-invalid={problems.tokens !== undefined}
          aria-describedby={`${id}-tokens-hint`} onChange={(e) => { setTokens(e.target.value); setSaved(false); }} />
        <span id={`${id}-tokens-hint`} className={problems.tokens ? 'error settings-note' : 'muted settings-note'}
          role={problems.tokens ? 'alert' : undefined}>
          {problems.tokens ?? `Input and output across one answer's calls (${formatTokens(TOKENS_PER_TURN.min)} to ${formatTokens(TOKENS_PER_TURN.max)}).`}
        </span>
      </div>
      <div className="settings-row">
        <label htmlFor={`${id}-dollars`}>Cost per day (USD)</label>
        {/* Text, not a number input: the amount is read as written, never through a float. */}
        <input id={`${id}-dollars`} type="text" inputMode="decimal" autoComplete="off" spellCheck={false} value={dollars}
          data-testid="settings-cost" aria-invalid={problems.dollars !== undefined} aria-describedby={`${id}-dollars-hint`}
          onChange={(e) => { setDollars(e.target.value); setSaved(false); }} />
        <span id={`${id}-dollars-hint`} className={problems.dollars ? 'error settings-note' : 'muted settings-note'}
          role={problems.dollars ? 'alert' : undefined}>
          {problems.dollars ?? `What Claude may cost in one day, in dollars (at most ${formatMicroUsd(MAX_COST_PER_DAY_MICRO_USD)}).`}
        </span>
      </div>
      <div className="settings-row">
        <button type="submit" className="primary" data-testid="settings-budgets-save" disabled={update.busy} aria-busy={update.busy}>
          Save budgets
        </button>
        <span className="settings-result" aria-live="polite">
          {update.error && <span className="error" role="alert" data-testid="settings-budgets-error">{update.error}</span>}
          {saved && <span className="settings-ok">Saved.</span>}
        </span>
      </div>
    </form>
  );
}

function UsageToday({ view }: { view: ModelSettingsView }) {
  const id = useId();
  const queryClient = useQueryClient();
  const u = view.usageToday;
  const facts: Array<[string, string, string]> = [
    ['Turns', formatTokens(u.turns), 'turns'],
    ['Input tokens', formatTokens(u.inputTokens), 'input'],
    ['Output tokens', formatTokens(u.outputTokens), 'output'],
    ['Cache-write tokens', formatTokens(u.cacheWriteTokens), 'cache-write'],
    ['Cache-read tokens', formatTokens(u.cacheReadTokens), 'cache-read'],
    ['Input read from cache', cacheShare(u), 'cache-share'],
    ['Cost', `${formatMicroUsd(u.costMicroUsd)} of ${formatMicroUsd(view.settings.maxCostPerDayMicroUsd)} a day`, 'cost'],
  ];
  return (
    <section className="settings-block" aria-labelledby={`${id}-title`} data-testid="settings-usage">
      <div className="section-head">
        <h3 id={`${id}-title`}>Usage today</h3>
        <button type="button" onClick={() => void queryClient.invalidateQueries({ queryKey: SETTINGS_KEY })}>Refresh</button>
      </div>
      <p className="muted settings-note">{formatDay(u.day)}</p>
      <dl className="settings-facts">
        {facts.map(([label, value, testId]) => (
          <div key={testId}>
            <dt>{label}</dt>
            <dd className="num" data-testid={`usage-${testId}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

// ── Alerts: kept per user on the backend, through main's alerts.update ─────────────────────────

const ALERTS_KEY = ['alerts', 'settings'] as const;

function alertSettingsQuery() {
  return queryOptions({ queryKey: ALERTS_KEY, queryFn: () => desk.alerts.settings.query() });
}

function AlertsSection() {
  const state = useDeskQuery(alertSettingsQuery());
  return (
    <section className="card settings" aria-labelledby="alerts-title" data-testid="settings-alerts">
      <h2 id="alerts-title">Alerts</h2>
      <p className="muted settings-intro">What the bell tells you as it happens. A muted kind still shows in the bell, quietly.</p>
      <Loadable state={state}>{(settings) => <AlertsForm settings={settings} />}</Loadable>
    </section>
  );
}

function AlertsForm({ settings }: { settings: AlertSettings }) {
  const queryClient = useQueryClient();
  const show = (next: AlertSettings) => queryClient.setQueryData(ALERTS_KEY, next);
  return (
    <>
      <Threshold settings={settings} onSaved={show} />
      <div className="settings-block" role="group" aria-labelledby="alerts-mutes-title">
        <h3 id="alerts-mutes-title">Mutes</h3>
        {EVENT_KINDS.map((kind) => <MuteRow key={kind} kind={kind} settings={settings} onSaved={show} />)}
      </div>
    </>
  );
}

function Threshold({ settings, onSaved }: { settings: AlertSettings; onSaved(next: AlertSettings): void }) {
  const id = useId();
  const update = useCall();
  const [text, setText] = useState(() => thresholdText(settings.largeBetThreshold));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const parsed = parseThresholdPoints(text);
    setProblem(parsed.ok ? null : parsed.reason);
    if (!parsed.ok) return;
    const next = await update.run(() => desk.alerts.update.mutate({ largeBetThreshold: parsed.value }), 'The threshold could not be saved. Try again.');
    if (!next) return;
    onSaved(next);
    setText(thresholdText(next.largeBetThreshold));
    setSaved(true);
  };

  return (
    <form className="settings-block" aria-labelledby={`${id}-title`} noValidate onSubmit={(e) => void onSubmit(e)}>
      <h3 id={`${id}-title`}>Large bets</h3>
      <div className="settings-row">
        <label htmlFor={`${id}-threshold`}>Alert from a stake of (points)</label>
        {/* Text, not a number input: the points are read as written, never through a float. */}
        <input id={`${id}-threshold`} type="text" inputMode="decimal" autoComplete="off" spellCheck={false} value={text}
          data-testid="alerts-threshold" aria-invalid={problem !== null} aria-describedby={`${id}-threshold-hint`}
          onChange={(e) => { setText(e.target.value); setSaved(false); }} />
        <button type="submit" className="primary" data-testid="alerts-threshold-save" disabled={update.busy} aria-busy={update.busy}>Save</button>
        <span id={`${id}-threshold-hint`} className={problem ? 'error settings-note' : 'muted settings-note'} role={problem ? 'alert' : undefined}>
          {problem ?? 'A bet in your downline at or above this stake is a large bet.'}
        </span>
        <span className="settings-result" aria-live="polite">
          {update.error && <span className="error" role="alert">{update.error}</span>}
          {saved && <span className="settings-ok">Saved.</span>}
        </span>
      </div>
    </form>
  );
}

function MuteRow({ kind, settings, onSaved }: { kind: EventKind; settings: AlertSettings; onSaved(next: AlertSettings): void }) {
  const id = useId();
  const update = useCall();
  const timeZone = useSession((s) => s.user?.timezone ?? 'UTC');
  const muted = settings.muted[kind] !== undefined;
  const [until, setUntil] = useState('');

  const toggle = async (mute: boolean) => {
    const next = await update.run(
      () => desk.alerts.update.mutate(mute ? { mute: { kind, untilTime: until === '' ? null : until } } : { unmute: kind }),
      mute ? 'The mute could not be saved. Try again.' : 'The mute could not be lifted. Try again.',
    );
    if (next) onSaved(next);
  };

  return (
    <div className="settings-row alerts-mute" data-testid={`alerts-mute-${kind}`}>
      <label className="alerts-toggle">
        <input type="checkbox" checked={muted} disabled={update.busy} data-testid={`alerts-mute-toggle-${kind}`}
          onChange={(e) => void toggle(e.target.checked)} />
        Mute {KIND_LABELS[kind].toLowerCase()}
      </label>
      {!muted && (
        <>
          <label htmlFor={`${id}-until`}>until</label>
          <input id={`${id}-until`} type="time" value={until} data-testid={`alerts-mute-until-${kind}`}
            aria-describedby={`${id}-until-hint`} onChange={(e) => setUntil(e.target.value)} />
          <span id={`${id}-until-hint`} className="muted settings-note">a time today; empty: until you unmute</span>
        </>
      )}
      <span className="settings-note" data-testid={`alerts-mute-state-${kind}`}>{muteInWords(settings, kind, timeZone)}</span>
      {update.error && <span className="error settings-result" role="alert">{update.error}</span>}
    </div>
  );
}

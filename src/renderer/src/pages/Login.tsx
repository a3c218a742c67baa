import { type FormEvent, useEffect, useState } from 'react';
import { BOOK_STAGES, type BookStage, type StartupState } from '../../../shared/contracts/startup';
import { useSession } from '../lib/session';
import { readStartup } from '../lib/startup';

/** How often the login page asks the browser shell how far its backend has got. */
const STARTUP_POLL_MS = 400;

const STAGE_WORDS: Record<BookStage, string> = {
  database: 'preparing the database',
  generating: 'generating players, markets and bets',
  writing: 'writing the bets and the ledger',
  indexing: 'indexing',
};

/**
 * What the browser shell says of its backend (`GET /startup`) until it is ready: a first start
 * writes the demo book, which takes a while, and signing in waits for it. The desktop app opens
 * its window once the book is open, and has no such address.
 */
function useStartup(): StartupState | null {
  const [state, setState] = useState<StartupState | null>(null);
  useEffect(() => {
    if (location.protocol !== 'http:' && location.protocol !== 'https:') return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      // Null: an older shell without the address, or one busy writing; asked again below.
      const answer = await readStartup();
      if (stopped) return;
      if (answer) {
        setState(answer);
        if (answer.phase === 'ready') return;
      }
      timer = setTimeout(() => void poll(), STARTUP_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return state;
}

function StartupStatus({ state }: { state: StartupState | null }) {
  if (state?.phase === 'opening') return <p className="state" role="status">Opening the book…</p>;
  if (state?.phase !== 'creating') return null;
  const step = BOOK_STAGES.indexOf(state.stage) + 1;
  return (
    <div className="state" role="status" aria-live="polite">
      <p>Creating the demo book (first start): {STAGE_WORDS[state.stage]}… {state.percent}%</p>
      <progress max={100} value={state.percent} aria-label={`Creating the demo book, step ${step} of ${BOOK_STAGES.length}`} />
      <p>You can sign in now: it goes through once the book is written.</p>
    </div>
  );
}

export function LoginPage() {
  const { login, error } = useSession();
  const startup = useStartup();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await login(username, password);
    setBusy(false);
  };
  return (
    <main className="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Agent Desk</h1>
        <label>Username<input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus /></label>
        <label>Password<input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required /></label>
        {error && <p className="error" role="alert">{error}</p>}
        <StartupStatus state={startup} />
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}

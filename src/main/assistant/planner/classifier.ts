/**
 * The intent classifier: a multinomial logistic regression over hashed features, trained at start-up
 * from each tool's intent's `examples` (planner/intents/) and the paraphrases in paraphrases.ts, so a request
 * the rule planner's triggers miss ("kitna baaki hai Yusuf pe?") still finds its tool, and a request
 * it is unsure of becomes a short question instead of a guess. A second, binary head tells a
 * question from a command: "did Vikram pay up?" is a read about payments, never a settlement.
 *
 * Pure and synchronous, no I/O; training is deterministic (fixed seed, fixed epochs), so two
 * trainings give the same scores. docs/intent-map.md ("The intent classifier") has the numbers.
 */
import { distance } from 'fastest-levenshtein';
import type { ToolModule } from '../../tools/define.js';
import { TOOL_MODULES } from '../../tools/index.js';
import { LEXICON, fold } from './grammar.js';
import { EXPLANATIONS, NAME_POOL, PARAPHRASES } from './paraphrases.js';
import { planningOf } from './intents/index.js';

export type SpeechAct = 'question' | 'command';

export interface IntentScore {
  intent: string;
  p: number;
}

export interface Classification {
  /** Every class, likeliest first; the p's sum to 1. */
  ranked: IntentScore[];
  /** `p` is the probability of `kind`, so always ≥ 0.5. */
  act: { kind: SpeechAct; p: number };
}

/** Classes that are no tool: the chat answers them itself. */
export const NON_TOOL_INTENTS = ['greeting', 'capabilities', 'off_topic'] as const;

/** Intents that write, and the read a question about the same thing is really asking for (each write tool's `asQuestion`). */
export const WRITE_INTENTS: Readonly<Record<string, string>> = Object.fromEntries((TOOL_MODULES as readonly ToolModule[])
  .flatMap((m) => { const p = planningOf(m.name); return m.isDestructive && p?.asQuestion ? [[p.id, p.asQuestion]] : []; }));

/**
 * Measured on the held-out sentences of tests/main/assistant/planner/classifier.test.ts (see docs/intent-map.md):
 * a top intent at or above `accept` with a `margin` over the second is right nearly always; below
 * that the user is asked, with the options whose p reaches `option`; a write is planned only when
 * the act head says command with at least `command`.
 */
export const THRESHOLDS = { accept: 0.6, margin: 0.2, option: 0.08, command: 0.7 } as const;

const DIM = 1 << 16;
const MASK = DIM - 1;
const EPOCHS = 8;
/** Examples the model already gets right to within this are skipped: little gradient, most of the time. */
const SETTLED = 0.02;
const SEED = 0x1f2e3d4c;
const RATE = 0.4;
const L2 = 1e-5;

interface Example {
  features: Feature;
  label: number;
  /** 1 question, 0 command, -1 not labelled (the tools' examples). */
  act: number;
}

/** Sparse, L2-normalised: parallel arrays of bucket and value. */
interface Feature {
  index: Int32Array;
  value: Float64Array;
}

export interface IntentModel {
  readonly labels: readonly string[];
  /** Row-major by feature: `weights[f * K + k]`, so one feature's classes sit together. */
  readonly weights: Float32Array;
  readonly bias: Float64Array;
  readonly actWeights: Float32Array;
  readonly actBias: number;
  /** Words seen in lower case in training: these are never names. */
  readonly known: ReadonlySet<string>;
  readonly knownByLength: ReadonlyMap<number, readonly string[]>;
  /** Memo of spelling corrections (null: none); it only ever caches a pure function of the word. */
  readonly corrections: Map<string, string | null>;
}

// ---------------------------------------------------------------- features

/** The placeholder for a capitalised word the model has never seen: a name, not an intent word. */
const NAME = '@';
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*(?:[.,]\d+)*/gu;
/** "p & l" and "p/l" are one word to the trade, but tokenising would cut them into letters. */
const PNL = /\bp\s*(?:&|\/|n)\s*l\b/gi;

/** The words a text is read as: folded, numbers as shapes, names as `@`, small typos corrected. */
export function normalise(model: IntentModel, text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(PNL, ' pnl ').matchAll(TOKEN)) {
    const token = raw[0];
    let word = fold(token);
    if (/^\d/.test(word)) {
      out.push(word.replace(/\d+(?:[.,]\d+)*/g, '0'));
      continue;
    }
    if (model.known.has(word)) {
      out.push(word);
      continue;
    }
    if (/^\p{Lu}/u.test(token)) {
      out.push(NAME);
      continue;
    }
    word = correct(model, word) ?? word;
    out.push(word);
  }
  return out;
}

/**
 * The known word a lower-case unknown one is a typo of, if any. Tight on short words, where one
 * letter changes the word ("sent" is not "set"): a four-letter word may only have dropped a letter.
 */
function correct(model: IntentModel, word: string): string | null {
  const cached = model.corrections.get(word);
  if (cached !== undefined) return cached;
  let best: string | null = null;
  let bestDistance = Infinity;
  const n = word.length;
  if (n >= 4 && /^\p{L}+$/u.test(word)) {
    const allowed = n >= 8 ? 2 : 1;
    for (let len = n - allowed; len <= n + allowed; len++) {
      if (n === 4 && len !== 5) continue;
      for (const candidate of model.knownByLength.get(len) ?? []) {
        const d = distance(word, candidate);
        if (d <= allowed && d < bestDistance) {
          best = candidate;
          bestDistance = d;
        }
      }
    }
  }
  if (model.corrections.size < 10_000) model.corrections.set(word, best);
  return best;
}

const FNV_OFFSET = 0x811c9dc5;
const fnv = (h: number, code: number) => Math.imul(h ^ code, 0x01000193) >>> 0;
function hashString(seed: number, s: string): number {
  let h = fnv(FNV_OFFSET, seed);
  for (let i = 0; i < s.length; i++) h = fnv(h, s.charCodeAt(i));
  return h;
}

/**
 * Character 2–5-grams of each word padded with boundary marks (typos and inflections share most of
 * them), word unigrams and bigrams with the text's ends marked (word order: "has X paid" against
 * "pay X"), and the question mark.
 */
function featurise(words: readonly string[], questionMark: boolean): Feature {
  const counts = new Map<number, number>();
  const add = (h: number) => {
    const i = h & MASK;
    counts.set(i, (counts.get(i) ?? 0) + 1);
  };
  for (const word of words) {
    if (word === NAME) continue;
    const padded = `<${word}>`;
    for (let start = 0; start < padded.length - 1; start++) {
      let h = fnv(FNV_OFFSET, 1);
      for (let end = start; end < Math.min(start + 5, padded.length); end++) {
        h = fnv(h, padded.charCodeAt(end));
        if (end > start) add(h);
      }
    }
  }
  const marked = ['^', ...words, '$'];
  for (let i = 1; i < marked.length - 1; i++) add(hashString(2, marked[i]!));
  for (let i = 0; i < marked.length - 1; i++) add(hashString(3, `${marked[i]} ${marked[i + 1]}`));
  if (questionMark) add(hashString(4, '?'));
  add(hashString(5, 'bias-free length')); // a constant feature keeps empty texts well defined

  const index = new Int32Array(counts.size);
  const value = new Float64Array(counts.size);
  let norm = 0;
  let j = 0;
  for (const [i, c] of counts) {
    index[j] = i;
    value[j] = c;
    norm += c * c;
    j++;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let k = 0; k < value.length; k++) value[k]! *= scale;
  return { index, value };
}

const featuresOf = (model: IntentModel, text: string) => featurise(normalise(model, text), text.includes('?'));

// ---------------------------------------------------------------- training

/** The labelled sentences: each tool module's own examples, then the paraphrases with their act. */
export function trainingSet(): Array<{ text: string; intent: string; act: SpeechAct | null }> {
  const rows: Array<{ text: string; intent: string; act: SpeechAct | null }> = [];
  for (const m of TOOL_MODULES as readonly ToolModule[]) {
    const p = planningOf(m.name);
    if (!p || p.classified === false) continue;
    for (const text of p.examples) rows.push({ text, intent: p.id, act: null });
  }
  for (const [intent, set] of Object.entries(PARAPHRASES)) {
    for (const text of set.q) rows.push({ text, intent, act: 'question' });
    for (const text of set.c) rows.push({ text, intent, act: 'command' });
  }
  return rows;
}

/** Intent labels: the tools' planning ids in module order (those the classifier reads), then the classes that are no tool. */
export function intentLabels(): string[] {
  const ids = (TOOL_MODULES as readonly ToolModule[]).flatMap((m) => { const p = planningOf(m.name); return p && p.classified !== false ? [p.id] : []; });
  return [...ids, ...NON_TOOL_INTENTS];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Capitalised words that are not known words: the names in a training sentence. */
const CAPITALISED = /\b\p{Lu}[\p{L}]*(?:['’]s)?/gu;

/** Trains the model from scratch: deterministic, synchronous, a few hundred milliseconds at most. */
export function trainIntentModel(): IntentModel {
  const labels = intentLabels();
  const rows = trainingSet();
  const labelIndex = new Map(labels.map((l, i) => [l, i]));

  const known = new Set<string>([...LEXICON]);
  for (const m of TOOL_MODULES as readonly ToolModule[]) for (const w of planningOf(m.name)?.vocabulary ?? []) known.add(w);
  for (const { text } of rows) {
    for (const raw of text.replace(PNL, ' pnl ').matchAll(TOKEN)) {
      if (!/^\p{Lu}/u.test(raw[0]) && !/^\d/.test(raw[0])) known.add(fold(raw[0]));
    }
  }
  const knownByLength = new Map<number, string[]>();
  for (const w of [...known].sort()) {
    const list = knownByLength.get(w.length) ?? [];
    list.push(w);
    knownByLength.set(w.length, list);
  }
  const K = labels.length;
  const model: IntentModel = {
    labels, weights: new Float32Array(DIM * K), bias: new Float64Array(K), actWeights: new Float32Array(DIM), actBias: 0,
    known, knownByLength, corrections: new Map(),
  };

  // Each sentence as written, and a lower-case copy with its names swapped for others from the
  // pool, so that neither capitals nor any one name carry an intent.
  const examples: Example[] = [];
  let nameAt = 0;
  for (const row of rows) {
    const label = labelIndex.get(row.intent);
    if (label === undefined) throw new Error(`paraphrases name an intent no tool has: ${row.intent}`);
    const act = row.act === null ? -1 : row.act === 'question' ? 1 : 0;
    examples.push({ features: featuresOf(model, row.text), label, act });
    const swapped = row.text.replace(CAPITALISED, (w) => (known.has(fold(w)) ? w : NAME_POOL[nameAt++ % NAME_POOL.length]!)).toLowerCase();
    if (swapped !== row.text.toLowerCase() || /\p{Lu}/u.test(row.text)) {
      examples.push({ features: featuresOf(model, swapped), label, act });
    }
  }

  const W = model.weights;
  // AdaGrad, one accumulator per bucket (shared by its classes: a sqrt per feature, not per weight):
  // each bucket's step shrinks with its own gradient history, so rare n-grams still learn.
  const gW = new Float32Array(DIM);
  const grad = new Float64Array(K);
  const actHead = new BinaryLearner(model.actWeights);
  const gB = new Float64Array(K);
  const random = mulberry32(SEED);
  const order = examples.map((_, i) => i);
  const scores = new Float64Array(K);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const e of order) {
      const { features, label, act } = examples[e]!;
      const { index, value } = features;
      scoresOf(model, features, scores);
      softmaxInPlace(scores);
      if (1 - scores[label]! >= SETTLED) for (let k = 0; k < K; k++) {
        const g = scores[k]! - (k === label ? 1 : 0);
        gB[k]! += g * g;
        model.bias[k]! -= (RATE * g) / (Math.sqrt(gB[k]!) + 1e-8);
      }
      for (let n = 0; n < index.length && 1 - scores[label]! >= SETTLED; n++) {
        const f = index[n]!;
        const base = f * K;
        const x = value[n]!;
        let squares = 0;
        for (let k = 0; k < K; k++) {
          const g = (scores[k]! - (k === label ? 1 : 0)) * x + L2 * W[base + k]!;
          grad[k] = g;
          squares += g * g;
        }
        gW[f]! += squares / K;
        const step = RATE / (Math.sqrt(gW[f]!) + 1e-8);
        for (let k = 0; k < K; k++) W[base + k]! -= step * grad[k]!;
      }
      if (act >= 0) actHead.learn(features, act);
    }
  }
  return { ...model, actBias: actHead.bias };
}

/** A binary logistic head learning by AdaGrad, one accumulator per bucket: the act head and the explanation head. */
class BinaryLearner {
  bias = 0;
  private biasSquares = 0;
  private readonly squares = new Float32Array(DIM);
  constructor(readonly weights: Float32Array) {}

  /** One step on one example (`y` 1 or 0); one the head already gets right to within SETTLED is skipped. */
  learn({ index, value }: Feature, y: number): void {
    let z = this.bias;
    for (let n = 0; n < index.length; n++) z += this.weights[index[n]!]! * value[n]!;
    const g0 = sigmoid(z) - y;
    if (Math.abs(g0) < SETTLED) return;
    this.biasSquares += g0 * g0;
    this.bias -= (RATE * g0) / (Math.sqrt(this.biasSquares) + 1e-8);
    for (let n = 0; n < index.length; n++) {
      const f = index[n]!;
      const g = g0 * value[n]! + L2 * this.weights[f]!;
      this.squares[f]! += g * g;
      this.weights[f]! -= (RATE * g) / (Math.sqrt(this.squares[f]!) + 1e-8);
    }
  }
}

function scoresOf(model: IntentModel, f: Feature, out: Float64Array): void {
  const K = model.labels.length;
  for (let k = 0; k < K; k++) out[k] = model.bias[k]!;
  for (let n = 0; n < f.index.length; n++) {
    const base = f.index[n]! * K;
    const x = f.value[n]!;
    for (let k = 0; k < K; k++) out[k]! += model.weights[base + k]! * x;
  }
}

function softmaxInPlace(s: Float64Array): void {
  let max = -Infinity;
  for (const v of s) max = Math.max(max, v);
  let sum = 0;
  for (let k = 0; k < s.length; k++) {
    s[k] = Math.exp(s[k]! - max);
    sum += s[k]!;
  }
  for (let k = 0; k < s.length; k++) s[k]! /= sum;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

// ---------------------------------------------------------------- the explanation head

/**
 * A third head, trained after the intent model on its features: whether a message asks how the
 * trade or the desk works ("is commission charged per bet or on the net?") rather than for anyone's
 * figures. Its positives are EXPLANATIONS, its negatives every training sentence of the intents; it
 * has no class among the intents, so adding it moves none of their scores.
 */
export interface ExplainHead {
  readonly weights: Float32Array;
  readonly bias: number;
}

const EXPLAIN_SEED = 0x5eed_e8a1;

export function trainExplainHead(model: IntentModel): ExplainHead {
  const examples = [
    ...[...EXPLANATIONS.q, ...EXPLANATIONS.c].flatMap((t) => [t, t.toLowerCase()]).map((t) => ({ features: featuresOf(model, t), y: 1 })),
    ...trainingSet().map((r) => ({ features: featuresOf(model, r.text), y: 0 })),
  ];
  const head = new BinaryLearner(new Float32Array(DIM));
  const random = mulberry32(EXPLAIN_SEED);
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const e of order) head.learn(examples[e]!.features, examples[e]!.y);
  }
  return { weights: head.weights, bias: head.bias };
}

let explainHead: ExplainHead | null = null;

/** The probability that a message asks how the trade or the desk works, not for figures. */
export function asksHowItWorks(text: string, model: IntentModel = intentModel()): number {
  explainHead ??= trainExplainHead(model);
  const { index, value } = featuresOf(model, text);
  let z = explainHead.bias;
  for (let n = 0; n < index.length; n++) z += explainHead.weights[index[n]!]! * value[n]!;
  return sigmoid(z);
}

// ---------------------------------------------------------------- inference

let cached: IntentModel | null = null;

/** The model, trained on first use and kept: start-up pays for it once. */
export function intentModel(): IntentModel {
  cached ??= trainIntentModel();
  return cached;
}

/** The intents of one request (one clause: see splitClauses), likeliest first, and its speech act. */
export function classifyIntent(text: string, model: IntentModel = intentModel()): Classification {
  const f = featuresOf(model, text);
  const scores = new Float64Array(model.labels.length);
  scoresOf(model, f, scores);
  softmaxInPlace(scores);
  const ranked = model.labels.map((intent, k) => ({ intent, p: scores[k]! })).sort((a, b) => b.p - a.p || (a.intent < b.intent ? -1 : 1));
  let z = model.actBias;
  for (let n = 0; n < f.index.length; n++) z += model.actWeights[f.index[n]!]! * f.value[n]!;
  const q = sigmoid(z);
  return { ranked, act: q >= 0.5 ? { kind: 'question', p: q } : { kind: 'command', p: 1 - q } };
}

export type IntentDecision =
  | { kind: 'accept'; intent: string; p: number; act: Classification['act'] }
  | { kind: 'clarify'; options: IntentScore[]; question: string };

const LABELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries((TOOL_MODULES as readonly ToolModule[]).flatMap((m) => { const p = planningOf(m.name); return p ? [[p.id, m.label]] : []; })),
  settle: 'settling up with a player', edit_limit: 'changing a limit', hedge: 'placing a hedge bet', mute_alerts: 'muting or unmuting alerts', report: 'a report',
  greeting: 'just saying hello', capabilities: 'what I can do', off_topic: 'something outside the book',
};

/**
 * What to do with one clause's classification: its intent, or a short question naming the two or
 * three likeliest. A write the act head does not call a command is never accepted: a question
 * about it is the matching read ("has Vikram paid?" → settlements), an unsure act is asked about.
 */
export function decideIntent(c: Classification): IntentDecision {
  const [first, second] = c.ranked;
  if (!first) return { kind: 'clarify', options: [], question: 'What would you like to see?' };
  let top = first;
  const read = WRITE_INTENTS[top.intent];
  if (read !== undefined) {
    if (c.act.kind === 'question') top = { intent: read, p: top.p };
    else if (c.act.p < THRESHOLDS.command) return clarify(c.ranked);
  }
  if (first.p >= THRESHOLDS.accept && first.p - (second?.p ?? 0) >= THRESHOLDS.margin) {
    return { kind: 'accept', intent: top.intent, p: top.p, act: c.act };
  }
  return clarify(c.ranked);
}

function clarify(ranked: readonly IntentScore[]): IntentDecision {
  const options = ranked.slice(0, 3).filter((r, i) => i < 2 || r.p >= THRESHOLDS.option);
  const names = options.map((o) => LABELS[o.intent] ?? o.intent);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'something else');
  return { kind: 'clarify', options, question: `Did you mean ${list}?` };
}

// ---------------------------------------------------------------- clauses

/** Joiners between two requests; each side must carry a request of its own for a split. */
const JOINER = /\s*(?:[,;](?:\s*(?:and\s+then|and\s+also|and|also|then|aur|plus)\b)?|\s(?:and\s+then|and\s+also|and|also|then|aur|plus|&|\+)\s)\s*/gi;
/** Joiners inside one phrase of the trade, and the commas of a number ("1,50,000"): never split there. */
const FIXED = /\b(?:profit\s+and\s+loss(?:es)?|p\s+and\s+l|up\s+and\s+down|lena\s+(?:aur\s+)?dena|buy\s+and\s+sell|\d+(?:,\d+)+)\b/gi;

/**
 * Words that carry a request: the tools' vocabularies, less those that also fit any phrase (open,
 * best, book…), and the trade's Hinglish and short forms.
 */
const INTENT_WORDS: ReadonlySet<string> = (() => {
  const generic = new Set(['open', 'active', 'running', 'pending', 'closed', 'completed', 'finished', 'graded', 'case', 'available',
    'most', 'best', 'worst', 'structure', 'network', 'tree', 'book', 'position', 'positions', 'cover', 'lay', 'stake', 'stakes',
    'history', 'log', 'result', 'results', 'performance', 'sheet', 'download', 'master', 'parent', 'top', 'highest', 'popular',
    'void', 'voided', 'cancelled', 'canceled', 'settled', 'won', 'lost', 'lose', 'losing', 'take', 'due', 'credit']);
  const words = new Set<string>();
  for (const m of TOOL_MODULES as readonly ToolModule[]) for (const w of planningOf(m.name)?.vocabulary ?? []) if (!generic.has(w)) words.add(w);
  for (const w of `pnl profit loss creditlimit cl limit limits expo exposure comm commission hisaab hisab khata udhaar udhar baaki baki
    paisa paise owe owes dues balance bets bet settle sett settlement settlements report statement excel pdf hedge downline upline
    subagents markets headroom liability risk payment payments paid minstake perclickwin dailywin`.split(/\s+/)) words.add(w);
  return words;
})();

function carriesRequest(model: IntentModel, text: string): boolean {
  return normalise(model, text.replace(PNL, ' pnl ').replace(/\bc\s*\/\s*l\b/gi, ' cl ')).some((w) => INTENT_WORDS.has(w));
}

/**
 * A multi-intent request cut into one clause per request ("settle Tarun and show Ojas's bets"),
 * on and / also / then / aur / plus / commas / semicolons — only where both sides carry a request,
 * so "Ind and Aus", "Tarun and Ojas" and "between 5 and 8 oct" stay whole. Pieces are the user's own
 * text, trimmed. `carries`: another reader's say that a piece is a request of its own (the rule
 * planner's triggers: "Karan's take").
 */
export function splitClauses(text: string, model: IntentModel = intentModel(), carries: (piece: string) => boolean = () => false): string[] {
  const fixed: Array<[number, number]> = [...text.matchAll(FIXED)].map((m) => [m.index, m.index + m[0].length]);
  const cuts: Array<[number, number]> = [];
  for (const m of text.matchAll(JOINER)) {
    const at = m.index;
    if (fixed.some(([s, e]) => at < e && at + m[0].length > s)) continue;
    cuts.push([at, at + m[0].length]);
  }
  const pieces: string[] = [];
  let from = 0;
  for (const [s, e] of cuts) {
    pieces.push(text.slice(from, s));
    from = e;
  }
  pieces.push(text.slice(from));
  // A piece with no request word belongs to its neighbour: "Tarun's pnl and Ojas's" is one request.
  const clauses: string[] = [];
  const joiners = cuts.map(([s, e]) => text.slice(s, e));
  let pending = '';
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (carriesRequest(model, piece) || carries(piece)) {
      clauses.push(pending + piece);
      pending = '';
    } else if (clauses.length > 0) {
      clauses[clauses.length - 1] += joiners[i - 1]! + piece;
    } else {
      pending += piece + (joiners[i] ?? '');
    }
  }
  if (pending !== '') {
    if (clauses.length > 0) clauses[clauses.length - 1] += pending;
    else clauses.push(pending);
  }
  return clauses.map((c) => c.trim()).filter((c) => c.length > 0);
}

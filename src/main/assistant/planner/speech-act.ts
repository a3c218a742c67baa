/**
 * Whether a message asks, tells or orders. Only an order may become a write: "has Rahul paid?",
 * "did Vikram settle?", "is Amit's CL 50k?" and "Rahul ne paise diye" are read as questions
 * (or reports of what happened), never as "settle Rahul" or "set the CL". Reads the folded text;
 * its words are lexicon/speech.json's concepts, put in order by lexicon/rules.json's rules.
 */
import { type Said, holds, occurrences, saidOf, says } from './lexicon.js';

export type SpeechAct = 'question' | 'command' | 'statement';

/** Orders in Hinglish and English ("please", "kar do", "make it", "… kar") that make even "…?" a request. */
export const ORDER_MARKER = { test: (folded: string): boolean => holds(folded, 'order') };

/** Marks that may follow an opener ("ok, bhai! settle …"). */
const PAUSE: ReadonlySet<string> = new Set([',', '.', '!']);

/**
 * The message without courtesy said as a condition ("if it's not too much trouble, bump…", "if you
 * don't mind"), which supposes nothing, and with `openers` without the openers that carry no
 * meaning of their own ("ok bhai please …").
 */
function plain(folded: string, openers: boolean): Said {
  const s = saidOf(folded);
  const dropped = new Set<number>();
  for (const c of occurrences(s, 'polite_if')) {
    for (let i = c.from; i < c.to; i++) dropped.add(i);
    for (let i = c.to; s.tokens[i] === ','; i++) dropped.add(i);
  }
  const tokens = s.tokens.filter((_t, i) => !dropped.has(i));
  if (!openers) return saidOf(tokens);
  let at = 0;
  for (const f of occurrences(saidOf(tokens), 'filler')) {
    if (f.from !== at) break;
    at = f.to;
    while (PAUSE.has(tokens[at] ?? '')) at++;
  }
  return saidOf(tokens.slice(at));
}

/**
 * Whether the message supposes a change rather than asking for it ("if I settle Anita, how much
 * would I get", "agar karan ko settle karu to", "what would happen if I raised his CL"): its figures
 * are a read; nothing is proposed.
 */
export const supposes = (folded: string): boolean => holds(plain(folded, false), 'hypothetical');

const MEMO = new WeakMap<ReadonlySet<string>, Map<string, SpeechAct>>();

/** `orderVerbs`: the verbs of the write tools ("settle", "set"); one opening the message makes it an order, "?" or not. */
export function speechAct(folded: string, orderVerbs: ReadonlySet<string>): SpeechAct {
  let memo = MEMO.get(orderVerbs);
  if (!memo) MEMO.set(orderVerbs, (memo = new Map()));
  let act = memo.get(folded);
  if (act === undefined) {
    act = actOf(plain(folded, true), orderVerbs);
    if (memo.size > 2000) memo.clear();
    memo.set(folded, act);
  }
  return act;
}

function actOf(s: Said, orderVerbs: ReadonlySet<string>): SpeechAct {
  // Asking for advice, however politely wrapped ("can you tell me if I should settle Deepak?"): the user decides; the answer is a read.
  if (holds(s, 'advice') || holds(s, 'hypothetical')) return 'question';
  // A payment foretold ("karan will pay 15k tomorrow") or a player's request passed on ("Neha wants her CL at 50k"): told, not ordered by the user.
  if (holds(s, 'foretold') || holds(s, 'relayed')) return 'statement';
  // "can you settle…", "go ahead and set…": requests made politely are still orders.
  if (holds(s, 'polite_order')) return 'command';
  // "maybe I settle Suresh tomorrow", "I think I'll raise his CL": a plan or a guess told, not an order given.
  if (holds(s, 'hedged')) return 'statement';
  if (orderVerbs.has(s.tokens[0] ?? '')) return 'command';
  // "min stake 500 kar doge kya plz", "bhej denge kya": a favour asked is an order, Hindi's polite way.
  if (holds(s, 'polite_hindi_order')) return 'command';
  if (holds(s, 'question')) return 'question';
  // Hindi puts its question word anywhere ("karan ka kitna settle karna baki hai", "alerts band hai kya
  // abhi"): asked, unless the message ends on an order ("… kitna bhi ho, settle kar do").
  if (says(s, 'hindi_question') && !holds(s, 'hindi_order_end')) return 'question';
  const asked = s.tokens.at(-1) === '?';
  const ordered = holds(s, 'order');
  // What happened, not what to do: "paid", "sent", "diye".
  if (says(s, 'done') && !ordered) return asked ? 'question' : 'statement';
  if (asked && !ordered) return 'question';
  return 'command';
}

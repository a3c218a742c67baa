/**
 * "what does take mean?", "CL ka matlab kya hai", "how is exposure calculated", "back vs lay?": a
 * question about a word of the desk (or what sets two apart), not about anyone's figures. Only the
 * whole message in one of these frames counts: "what is my take", "take kya hai" (Hinglish for
 * "what's the take") and "explain Karan's exposure" are reads, so a bare "what is T" or "T kya
 * hai" is not taken as a definition. Around a frame, only words that ask nothing more may stand:
 * an opener ("sorry,", "I'm new here."), a filler ("in simple words", "on my dashboard") and after
 * it sentences about the word itself ("people keep saying it", "is it money I have or I owe?").
 */
import { GLOSSARY, type GlossaryTerm } from '../glossary.js';

const TERM_OF = new Map<string, GlossaryTerm>(
  (Object.entries(GLOSSARY) as Array<[GlossaryTerm, { words: readonly string[] }]>).flatMap(([term, e]) => e.words.map((w) => [w, term] as const)),
);
/** Every word of the glossary, longest first: "khaiwal" is not "khai" and a word. */
const WORD = `(${[...TERM_OF.keys()].sort((a, b) => b.length - a.length).join('|')})\\b`;
/** "lay bet", "back side": the kind of bet named by its side is the side. */
const KIND = String.raw`(?:\s+(?:bet|bets|betting|side))?`;
/** A word of the desk as named in a question: "the word take", "'comm'", "a lay bet". */
const TERM = `(?:the\\s+|a\\s+|an\\s+)?(?:term\\s+|word\\s+|words\\s+|concept\\s+of\\s+|idea\\s+of\\s+)?(?:"|')?${WORD}(?:"|')?${KIND}`;
/** "means", "is", "stands for": what a clause says of the word asked about. */
const IS = String.raw`(?:means|mean|is|are|stands\s+for|refers\s+to)`;
const ADVERB = String.raw`(?:exactly\s+|actually\s+|really\s+|even\s+)?`;

/** "ek line mein", "short mein": how briefly an explanation is asked for. */
const BRIEFLY = String.raw`(?:(?:ek\s+line\s+(?:mein|me|ma)|short\s+(?:mein|me)|simple\s+(?:words\s+)?(?:mein|me)|aasaan\s+(?:bhasha\s+)?(?:mein|me))\s+)?`;
const FRAMES = [
  `(?:what|wat|wht)\\s+${ADVERB}(?:does|do|dose|did)\\s+${TERM}\\s+${ADVERB}(?:mean|means|stand\\s+for|refer\\s+to)`,
  `(?:what|wat|wht)\\s*(?:is|s)?\\s+(?:meant\\s+by|(?:the\\s+)?(?:meaning|definition)\\s+of)\\s+${TERM}`,
  `whats\\s+(?:meant\\s+by|(?:the\\s+)?(?:meaning|definition)\\s+of)\\s+${TERM}`,
  `what\\s+do\\s+(?:you|u|people|they)\\s+mean\\s+by\\s+${TERM}`,
  // "what does it mean to lay a bet", "what does it mean to hedge"
  `(?:what|wat)\\s+(?:does|do)\\s+it\\s+mean\\s+to\\s+${WORD}(?:\\s+(?:a|an|the|my|your)\\s+(?:bet|bets|position|book|market))?`,
  `(?:define|explain|describe)\\s+${TERM}`,
  // "what is exposure, kindly explain me": the bare question is a read, asked to be explained it is the word.
  `(?:what|wat|whats)\\s*(?:is|s)?\\s+${TERM}\\s*[,.]?\\s*(?:kindly\\s+|please\\s+|pls\\s+|can\\s+you\\s+)?(?:explain|samjhao|samjha\\s+do)(?:\\s+(?:me|it|to\\s+me|simple|simply|briefly))*`,
  `(?:meaning|definition)\\s+of\\s+${TERM}`,
  // "can you explain what exposure means", "tell me what CL stands for"
  `(?:explain|tell\\s+me|tell\\s+us|say)\\s+(?:to\\s+me\\s+)?what\\s+${TERM}\\s+${IS}`,
  // "I don't understand what 'comm' is", "I don't get hedge", "not sure what khai means"
  `(?:i\\s+|we\\s+)?(?:do\\s+not|did\\s+not|can\\s+not|cannot|dont|didnt|cant)\\s+(?:really\\s+|quite\\s+)?(?:understand|get|know|follow)\\s+(?:what\\s+${TERM}\\s+${IS}|${TERM})`,
  `(?:i\\s+am\\s+|am\\s+)?(?:not\\s+sure|unsure|confused|not\\s+clear)\\s+(?:what\\s+${TERM}\\s+${IS}|(?:about|by|on)\\s+${TERM})`,
  `(?:i\\s+)?(?:want|need|would\\s+like)\\s+to\\s+(?:know|understand|learn)\\s+what\\s+${TERM}\\s+${IS}`,
  `${TERM}\\s+(?:means|meaning|matlab|ka\\s+matlab|ka\\s+meaning|ka\\s+arth|ki\\s+definition)(?:\\s+(?:kya|what))?(?:\\s+(?:hai|h|hota(?:\\s+(?:hai|h))?|hoti(?:\\s+(?:hai|h))?))?`,
  // "khai ka kya matlab hai"
  `${TERM}\\s+(?:ka|ki|ke)\\s+kya\\s+(?:matlab|meaning|arth|matalab)(?:\\s+(?:hai|h|hota(?:\\s+(?:hai|h))?|hoti(?:\\s+(?:hai|h))?))?`,
  `${TERM}\\s+(?:kya|kaya)\\s+(?:hota|hoti|hote)\\s*(?:hai|h|hain)?`,
  `${TERM}\\s+(?:kya|kaya)\\s+(?:cheez|chiz|cheej)\\s+(?:hai|h|hota(?:\\s+hai)?|hoti(?:\\s+hai)?)`,
  // "khaiwal kaun hota hai": a person of the trade, asked as who
  `${TERM}\\s+(?:kaun|kon)\\s+(?:hota|hoti|hote)\\s*(?:hai|h|hain)?`,
  `${TERM}\\s+(?:kise|kisko|kisse)\\s+(?:kehte|kahte|bolte)\\s*(?:hai|h|hain)?`,
  `${TERM}\\s+(?:ka\\s+)?(?:matlab\\s+)?${BRIEFLY}(?:samjhao|samjha\\s+do|samjhado|samjhaiye|samjha\\s+dijiye|samjha|explain\\s+karo|explain\\s+kar\\s+do|explain\\s+kardo)`,
  // "hedge bet mhanje kay", "take na enna artham", "lay bet ante enti": "means what" in Marathi, Tamil, Telugu.
  `${TERM}\\s+(?:mhanje|mhanaje|mhanje\\s+nemka|na|ante|antey|anta|endral|enral|yendre|means|matlab|mujhe)\\s+(?:kya|what|enna|enti|ki)(?:\\s+(?:matlab|meaning))?(?:\\s+(?:hai|h|re|ra|da))?`,
  // "commission eppadi calculate pannuvinga", "commission kaise calculate hota hai": how it is worked out.
  `${TERM}\\s+(?:(?:ta|ti|to|ka|ki)\\s+)?(?:kaise|how|eppadi)\\s+(?:calculate|compute|count|work\\s+out)\\w*(?:\\s+[a-z]+){0,2}`,
  // "whats take mean again", "what is CL mean": the question said short, as speech-to-text writes it.
  `(?:whats|what(?:\\s+is)?|wats|wat(?:\\s+is)?)\\s+${TERM}\\s+(?:mean|means|stand\\s+for)`,
  `how\\s+(?:is|are|do\\s+(?:you|u)|does\\s+(?:the\\s+)?(?:app|desk))\\s+(?:calculate\\s+)?${TERM}(?:\\s+(?:calculated|computed|worked\\s+out|counted|figured\\s+out|decided|calculate))?`,
  `(?:what|wat)\\s*(?:is|s)?\\s+(?:a|an)\\s+${WORD}${KIND}`,
  `whats\\s+(?:a|an)\\s+${WORD}${KIND}`,
  // "what are lay bets": the side named with its bets is the kind of bet, not a list of them
  `(?:what|wat)\\s+(?:are|r|is)\\s+${WORD}\\s+(?:bets|bet)`,
  // "what is exposure in betting": asked of the trade, not of the book
  `(?:what|wat)\\s*(?:is|s|are)?\\s+${TERM}\\s+(?:in|on)\\s+(?:betting|cricket\\s+betting|an?\\s+exchange|the\\s+exchange|bookie\\s+(?:slang|language|terms)|satta|hindi|english)`,
];

/** The two terms of a comparison: "back and lay", "lagai aur khai", "exposure vs PnL", "back/lay". */
const AND = String.raw`\s*(?:\s(?:and|aur|ani|or|n|vs|v|versus|v/s|ku)\s|&|/|,)\s*`;
const DIFF = String.raw`(?:difference|differences|diff|farak|fark|farq|fraq|frk|mark|antar)`;
const PAIR = `${TERM}${AND}${TERM}`;
const PAIR_FRAMES = [
  // "what's the difference between back and lay", "diff b/w back & lay"
  `(?:(?:what|wat|whats)\\s*(?:is|s|are)?\\s+)?(?:the\\s+)?(?:main\\s+|real\\s+|exact\\s+)?${DIFF}\\s+(?:between|b/w|btw|bw|of|in)\\s+${PAIR}`,
  // "how is exposure different from PnL", "is take the same as PnL"
  `(?:how\\s+(?:is|are|does|do)\\s+)?${TERM}\\s+(?:different|differ|differs)\\s+from\\s+${TERM}`,
  `(?:is|are)\\s+${TERM}\\s+(?:the\\s+same\\s+(?:thing\\s+)?as|same\\s+as|different\\s+from|not\\s+the\\s+same\\s+as)\\s+${TERM}`,
  `how\\s+(?:do|does|are|is)\\s+${PAIR}\\s+(?:differ|different)`,
  // "exposure and PnL — how are they different", "back vs lay, which is which"
  `${PAIR}\\s*[-—–:,?.]*\\s*(?:(?:what|whats|wat)\\s*(?:is|s)?\\s+(?:the\\s+)?${DIFF}|how\\s+(?:are|do|is)\\s+(?:they|these|the\\s+two|both|these\\s+two)\\s+(?:different|differ)|(?:what|which)\\s+is\\s+which|same\\s+(?:thing|or\\s+different)|${DIFF})`,
  // "lagai aur khai mein kya farak hai"
  `${PAIR}\\s+(?:mein|me|main|mai|ma|ke\\s+beech(?:\\s+(?:mein|me))?|ka|ki|ke|vachche)\\s+(?:kya\\s+)?${DIFF}(?:\\s+kya)?(?:\\s+(?:hai|h|he|hota(?:\\s+hai)?|hai\\s+kya))?`,
  // "what do back and lay mean", "back aur lay ka matlab", "explain exposure and PnL"
  `(?:what|wat)\\s+(?:do|does)\\s+${PAIR}\\s+(?:mean|means|stand\\s+for)`,
  `${PAIR}\\s+(?:ka|ke|ki)\\s+(?:kya\\s+)?(?:matlab|meaning)(?:\\s+(?:kya\\s+)?(?:hai|h|hota(?:\\s+hai)?))?`,
  `(?:define|explain)\\s+${PAIR}`,
  // "whats available mean vs take": one term's meaning asked against another's.
  `(?:whats|what\\s+(?:is|does)|wat)\\s+${TERM}\\s+(?:mean|means)\\s+(?:vs|v|versus|v/s|compared\\s+to|against)\\s+${TERM}`,
  // "CL ku available ku difference enna": Tamil marks each of the two.
  `${TERM}\\s+ku\\s+${TERM}\\s+(?:ku|kum)\\s+${DIFF}(?:\\s+(?:kya|what|enna))?`,
  // "lay aur back ek line mein samjha"
  `${PAIR}\\s+(?:ka\\s+|ke\\s+)?(?:farak\\s+|matlab\\s+)?${BRIEFLY}(?:samjhao|samjha\\s+do|samjhado|samjhaiye|samjha|explain\\s+karo|explain\\s+kar\\s+do|explain)`,
];
/**
 * "back vs lay?": two words of the trade set side by side, nothing else asked. Two figures of
 * the book side by side ("pnl vs commission") ask for the figures, so this frame is only for
 * words no tool reads.
 */
const BARE_VS = String.raw`${TERM}\s+(?:vs|v|versus|v/s)\s+${TERM}`;
const FIGURES: ReadonlySet<GlossaryTerm> = new Set([
  'take', 'exposure', 'creditlimit', 'available', 'commission', 'pnl', 'settlement', 'upline', 'downline', 'subagent',
  'share', 'hedge', 'liability', 'perclickwin', 'dailywin', 'minstake', 'gross', 'book',
]);

/** Words around a frame that ask nothing more: "please", "exactly", "to me", "in simple words", "on my dashboard". */
const FILLER = String.raw`(?:\s+(?:please|pls|plz|exactly|actually|again|(?:on\s+|in\s+|over\s+|around\s+)?here|samjha\s+(?:de|do|dijiye)|samjhao|bata\s+(?:de|do)|batao|explain\s+kar(?:o|\s+do|\s+de)?|bhai|bhau|bhaiya|boss|yaar|sir|ji|to\s+me|for\s+me|in\s+simple\s+(?:words|terms|language|english|hindi)|in\s+plain\s+(?:words|english)|in\s+short|in\s+this\s+app|on\s+the\s+desk|in\s+betting|simply|briefly|for\s+a\s+(?:new|newbie)(?:\s+agent)?|(?:on|in)\s+(?:my|the|this)\s+(?:[a-z]+\s+)?(?:dashboard|screen|page|app|report|reports|statement|desk)|samjha|samjhao|samjha\s+do|batao|bata\s+do))*`;
const OPENER = String.raw`(?:(?:ok|okay|so|hey|hi|hello|bhai|yaar|sir|quick\s+question|quick\s+one|one\s+question|a\s+doubt|doubt|noob\s+question|silly\s+question|basic\s+question|sorry|sorry\s+if\s+this\s+is\s+(?:basic|silly|dumb)|btw|and|but|also|can\s+you|could\s+you|can\s+u|would\s+you|pls|please|i\s+am\s+new(?:\s+here|\s+to\s+this|\s+to\s+betting)?|new\s+(?:agent\s+)?here)\s*[,.:!-]?\s+)*`;
/**
 * A sentence after the question about the word itself, asking nothing of the book: "people keep
 * saying it", "I see it on my dashboard", "is it money I have or money I owe?".
 */
const ABOUT_IT = String.raw`(?:(?:kindly\s+|please\s+|pls\s+|can\s+you\s+)?explain(?:\s+(?:me|it|to\s+me|simple|simply|briefly|in\s+simple\s+words))*|(?:is\s+it\s+|like\s+|i\s+mean\s+|as\s+in\s+)?(?:the\s+)?(?:worst[\s-]+case|max(?:imum)?|total|possible|potential)\s+(?:loss|losses|win|winnings|risk|amount)|(?:people|everyone|everybody|they|agents|players|my\s+upline|my\s+players)\s+(?:keep\s+|keeps\s+|kept\s+|always\s+)?(?:saying|say|said|using|use|used|mention|mentioning|talk\s+about|talking\s+about)\s+(?:it|this|that|the\s+word)(?:\s+a\s+lot)?(?:\s+and\s+i\s+(?:am|m|keep|just)\s+[^?.!]*)?|i\s+(?:keep\s+|always\s+)?(?:hear|hearing|heard|see|seeing|saw)\s+(?:it|this|that|the\s+word)(?:\s+(?:a\s+lot|everywhere|all\s+the\s+time|(?:on|in)\s+(?:my|the)\s+(?:dashboard|screen|page|app|reports?|statement)))?|(?:is|does|do|will|would|can)\s+(?:not\s+)?(?:it|this|that)\s+[^?.!]*|i\s+am\s+new(?:\s+here|\s+to\s+this)?|(?:i\s+am\s+)?(?:confused|not\s+sure)|never\s+heard\s+of\s+it|thanks|thank\s+you|thx)`;
const TAIL = String.raw`(?:\s*[?.!,]+\s*${ABOUT_IT}\s*[?.!]*)*`;
const whole = (frames: string) => new RegExp(`^${OPENER}(?:${frames})${FILLER}\\s*[?.!]*${TAIL}$`);
const DEFINITION = whole([...PAIR_FRAMES, ...FRAMES].join('|'));
const SIDE_BY_SIDE = whole(BARE_VS);
const BARE_WHAT = whole(`(?:what|wat|wht|whats)\\s*(?:is|s|are)?\\s+${TERM}`);
/** Limits each player has one of: with no player named, "what is T" asks the word. */
const PER_PLAYER: ReadonlySet<GlossaryTerm> = new Set(['perclickwin', 'dailywin', 'minstake']);

/**
 * What a message asks the meaning of: a glossary term (`take`), two told apart (`back+lay`, in
 * a fixed order), or null when it asks anything else. The planner's intent is `definition:` and it.
 */
export function definitionAsked(folded: string): string | null {
  const text = folded.trim().replace(/\s+/g, ' ');
  const framed = termsOf(DEFINITION.exec(text), HINDI.test(text));
  if (framed) return framed.join('+');
  // "what is lay betting", "what is per click win": a bare what-is is a read of a figure the book has
  // ("what is exposure"), and a definition of a word it has no one figure for (a side, a limit
  // that is each player's own).
  const bare = termsOf(BARE_WHAT.exec(text), false);
  if (bare?.length === 1 && (!FIGURES.has(bare[0]!) || PER_PLAYER.has(bare[0]!))) return bare[0]!;
  const sideBySide = termsOf(SIDE_BY_SIDE.exec(text), false);
  return sideBySide && sideBySide.length === 2 && !sideBySide.some((t) => FIGURES.has(t)) ? sideBySide.join('+') : null;
}

/** A question put in Hindi: its "bets" is the trade's "lagai", a back bet. */
const HINDI = /\b(?:kya|matlab|kise|kisko|kaun|kon|hota|hoti|samjhao|samjha|kehte|bolte|aur|mein|farak|fark)\b/;

/**
 * The terms a match named, each once and in a fixed order. "lagai" is read as "bets"
 * (grammar.ts): asked in Hindi, or told apart from a lay ("lagai aur khai"), it is the back.
 */
function termsOf(match: RegExpExecArray | null, hindi: boolean): GlossaryTerm[] | null {
  if (!match) return null;
  const words = match.slice(1).filter((g): g is string => g !== undefined);
  const terms = words.map((w) => (w === 'bets' && hindi ? 'back' : TERM_OF.get(w)!));
  if (terms.includes('lay') && terms.includes('bet')) terms[terms.indexOf('bet')] = 'back';
  const once = [...new Set(terms)];
  return once.length === 0 || once.length > 2 ? null : once.sort();
}

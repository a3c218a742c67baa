/**
 * "what does take mean?", "CL ka matlab kya hai", "how is exposure calculated": a question about
 * a word of the desk, not about anyone's figures. Only the whole message in one of these frames
 * counts: "what is my take", "take kya hai" (Hinglish for "what's the take") and "explain
 * Karan's exposure" are reads, so a bare "what is T" or "T kya hai" is not taken as a definition.
 */
import { GLOSSARY, type GlossaryTerm } from '../glossary.js';

const TERM_OF = new Map<string, GlossaryTerm>(
  (Object.entries(GLOSSARY) as Array<[GlossaryTerm, { words: readonly string[] }]>).flatMap(([term, e]) => e.words.map((w) => [w, term] as const)),
);
const TERM = `(?:the\\s+|a\\s+|an\\s+)?(?:term\\s+|word\\s+|concept\\s+of\\s+)?(?:"|')?(${[...TERM_OF.keys()].join('|')})(?:"|')?`;
const FRAMES = [
  `(?:what|wat|wht)\\s+(?:does|do|dose|did)\\s+${TERM}\\s+(?:mean|means|stand\\s+for)`,
  `(?:what|wat|wht)\\s*(?:is|s)?\\s+(?:meant\\s+by|(?:the\\s+)?(?:meaning|definition)\\s+of)\\s+${TERM}`,
  `whats\\s+(?:meant\\s+by|(?:the\\s+)?(?:meaning|definition)\\s+of)\\s+${TERM}`,
  `what\\s+do\\s+(?:you|u)\\s+mean\\s+by\\s+${TERM}`,
  `(?:define|explain|describe)\\s+${TERM}`,
  `(?:meaning|definition)\\s+of\\s+${TERM}`,
  `${TERM}\\s+(?:means|meaning|matlab|ka\\s+matlab|ka\\s+meaning|ka\\s+arth|ki\\s+definition)(?:\\s+(?:kya|what))?(?:\\s+(?:hai|h|hota\\s+hai|hoti\\s+hai))?`,
  `${TERM}\\s+(?:kya|kaya)\\s+(?:hota|hoti|hote)\\s*(?:hai|h|hain)?`,
  `${TERM}\\s+(?:kise|kisko|kisse)\\s+(?:kehte|kahte|bolte)\\s*(?:hai|h|hain)?`,
  `how\\s+(?:is|are|do\\s+(?:you|u)|does\\s+(?:the\\s+)?(?:app|desk))\\s+(?:calculate\\s+)?${TERM}(?:\\s+(?:calculated|computed|worked\\s+out|counted|figured\\s+out|decided|calculate))?`,
  `(?:what|wat)\\s*(?:is|s)?\\s+(?:a|an)\\s+(${[...TERM_OF.keys()].join('|')})`,
  `whats\\s+(?:a|an)\\s+(${[...TERM_OF.keys()].join('|')})`,
];
/** Words around a frame that ask nothing more: "please", "exactly", "to me", "in simple words". */
const FILLER = String.raw`(?:\s+(?:please|pls|plz|exactly|again|here|bhai|yaar|sir|ji|to\s+me|for\s+me|in\s+simple\s+(?:words|terms)|in\s+this\s+app|on\s+the\s+desk|simply|briefly))*`;
const OPENER = String.raw`(?:(?:ok|okay|so|hey|hi|bhai|yaar|sir|quick\s+question|sorry|btw|and|but|also|can\s+you|could\s+you|pls|please)\s*,?\s+)*`;
const DEFINITION = new RegExp(`^${OPENER}(?:${FRAMES.join('|')})${FILLER}\\s*[?.!]*$`);

/** The glossary term a message asks the meaning of, or null when it asks anything else. */
export function definitionAsked(folded: string): GlossaryTerm | null {
  const match = DEFINITION.exec(folded.trim().replace(/\s+/g, ' '));
  if (!match) return null;
  const word = match.slice(1).find((g) => g !== undefined);
  return word === undefined ? null : TERM_OF.get(word) ?? null;
}

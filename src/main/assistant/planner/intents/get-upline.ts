import { hasAny } from '../slots.js';
import type { ToolPlanning } from '../types.js';


/**
 * "upar" (Hindi: above) on its own is the agent over you ("upar kitna dena hai", "upar wala
 * balance"); after "ke" it is only "on" ("kiske upar udhaar hai": on whom is the debt).
 */
const UP_THE_LINE = /(?<!\b(?:ke|kiske|kis|uske|iske|jiske|unke|inke|sabke|mere|tere|apne)\s+)\bupar\b/;

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'upline', precedence: 70, exclusive: false, refreshes: true,
  vocabulary: ['upline', 'parent', 'master', 'superagent', 'upar'],
  triggers: (r) => hasAny(r, 'upline', 'parent', 'master', 'superagent') || UP_THE_LINE.test(r.folded)
    || (/\b(?:i|we)\s+(?:owe|have\s+to\s+pay)\b/.test(r.folded) && r.names.length === 0)
    // "mujhe kitna dena hai": what I have to give, with nobody named, is what I owe up the line.
    || (/\b(?:mujhe|mujhko|hume|humein|humko)\b(?:\s+\S+){0,3}\s+(?:payable|dene|chukana)\b/.test(r.folded) && r.names.length === 0)
    || (/\b(?:my|mera|meri|mere|apna|apni|apne)\s+(?:balance|available|headroom)\b/.test(r.folded) && r.names.length === 0),
  fill: () => ({ args: {} }),
  examples: ['what do I owe my upline'],
} satisfies ToolPlanning;

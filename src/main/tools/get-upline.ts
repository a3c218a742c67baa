import * as api from '../../shared/contracts/agent-api.js';
import { hasAny } from '../assistant/planner/slots.js';
import { money, name } from '../assistant/words.js';
import { AGENT_ONLY, MONEY, opts } from './common.js';
import { defineTool } from './define.js';

/**
 * "upar" (Hindi: above) on its own is the agent over you ("upar kitna dena hai", "upar wala
 * balance"); after "ke" it is only "on" ("kiske upar udhaar hai": on whom is the debt).
 */
const UP_THE_LINE = /(?<!\b(?:ke|kiske|kis|uske|iske|jiske|unke|inke|sabke|mere|tere|apne)\s+)\bupar\b/;

export default defineTool({
  name: 'agent.getUpline',
  label: 'your balance',
  description: 'The user\'s own position with their upline agent: their credit limit, what they owe the upline, the net '
    + `of their downline's take against it, and available credit. Use it for "my balance", "my CL", "what do I owe". ${MONEY}`,
  input: api.getUplineInput, output: api.getUplineOutput,
  allowedRoles: AGENT_ONLY, isDestructive: false, card: 'balance_card', entities: {},
  invoke: (args, ctx) => ctx.api.agent.getUpline.query(args, opts(ctx)),
  render: (out) => ({ type: 'balance_card', data: out }),
  say(d) {
    const owed = d.owed > 0 ? `You owe ${name(d.uplineName)} ${money(d.owed)}` : d.owed < 0 ? `${name(d.uplineName)} owes you ${money(d.owed)}` : `You are square with ${name(d.uplineName)}`;
    return `${owed}. Your credit limit is ${money(d.cl)}, ${money(d.available)} available.`;
  },
  planning: {
    id: 'upline', precedence: 70, exclusive: false, refreshes: true,
    vocabulary: ['upline', 'parent', 'master', 'superagent', 'upar'],
    triggers: (r) => hasAny(r, 'upline', 'parent', 'master', 'superagent') || UP_THE_LINE.test(r.folded)
      || (/\b(?:i|we)\s+(?:owe|have\s+to\s+pay)\b/.test(r.folded) && r.names.length === 0)
      // "mujhe kitna dena hai": what I have to give, with nobody named, is what I owe up the line.
      || (/\b(?:mujhe|mujhko|hume|humein|humko)\b(?:\s+\S+){0,3}\s+(?:payable|dene|chukana)\b/.test(r.folded) && r.names.length === 0)
      || (/\b(?:my|mera|meri|mere|apna|apni|apne)\s+(?:balance|available|headroom)\b/.test(r.folded) && r.names.length === 0),
    fill: () => ({ args: {} }),
    examples: ['what do I owe my upline'],
  },
});

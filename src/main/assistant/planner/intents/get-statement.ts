import type { StatementKind } from '../../../../shared/contracts/agent-api.js';
import { ask, put } from '../slots.js';
import type { ToolPlanning } from '../types.js';
import { said } from './concepts.js';

/** Lines of one kind asked for by name ("settlement statement of Deepak"): the statement kept to them. */
const KIND_WORDS: ReadonlyArray<readonly [concept: string, kind: StatementKind]> = [
  ['stmt:kind_settlement', 'settlement'], ['stmt:kind_credit_limit', 'credit_limit'], ['stmt:kind_bet_result', 'bet_result'],
];

/**
 * The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a
 * follow-up may change. A statement asked for as a file ("statement pdf") is the report's: its
 * format words trigger the report first, which runs before this and is exclusive. Asked for, a
 * statement is named ("statement", "stmt", "passbook"), so the trigger alone reads it.
 */
export default {
  id: 'statement', precedence: 12, exclusive: true, classified: false, shownOn: '/agent/statement', follows: { player: true }, range: 'dates',
  vocabulary: ['statement', 'statements', 'stmt', 'passbook'],
  triggers: (r) => said(r.folded, 'stmt:statement'),
  fill(s) {
    const player = s.player({ takesFixture: false });
    if (!player) return ask('needs_player', 'Whose statement? Name a player or sub-agent of your downline.');
    const args: Record<string, unknown> = { ...s.range(false) };
    put(args, 'player', player);
    const kinds = KIND_WORDS.filter(([concept]) => said(s.r.folded, concept)).map(([, kind]) => kind);
    if (kinds.length > 0) args.kinds = kinds;
    return { args };
  },
  examples: ["show Anita's statement", 'statement of Karan last week', 'Deepak ka statement'],
} satisfies ToolPlanning;

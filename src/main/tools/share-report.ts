import * as actions from '../../shared/contracts/agent-actions.js';
import { DESK, IDS } from './common.js';
import { defineTool } from './define.js';

// No handlers yet, and no intent of the rule planner's: offered to a model, refused as not available in this version.
export default defineTool({
  name: 'agent.shareReport',
  label: 'report link',
  description: 'Sends a report made by agent.generateReport as a notification, to the user (recipient "self") or to a '
    + `player of their downline (recipient: the player's id). ${IDS}`,
  input: actions.shareReportInput, output: actions.shareReportOutput,
  allowedRoles: DESK, isDestructive: false, card: null, entities: {},
});

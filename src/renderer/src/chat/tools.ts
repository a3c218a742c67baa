/** Tool names in words for the "Looking up …" status: `agent.getLiveExposure` → "live exposure". */
const NAMES: Record<string, string> = {
  'agent.searchPlayers': 'players',
  'agent.getDownline': 'your downline',
  'agent.getTake': 'take',
  'agent.getUpline': 'your balance',
  'agent.getCreditLimit': 'credit limits',
  'agent.getLiveExposure': 'live exposure',
  'agent.getPnL': 'P&L',
  'agent.getCommission': 'commission',
  'agent.getSettlementHistory': 'settlements',
  'agent.getBetHistory': 'bets',
  'agent.getTopMarkets': 'top markets',
  'agent.editLimit': 'the limit change',
  'agent.settlePlayer': 'the settlement',
  'agent.placeHedgeBet': 'the hedge bet',
  'agent.generateReport': 'the report',
  'agent.shareReport': 'the report link',
  'match.searchFixtures': 'matches',
};

export function humaniseTool(tool: string): string {
  const known = NAMES[tool];
  if (known) return known;
  const name = tool.slice(tool.indexOf('.') + 1).replace(/^(get|search|list|find)(?=[A-Z])/, '');
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').trim().toLowerCase();
  return words || 'data';
}

/** "a", "a and b", "a, b and c" (names repeated once only). */
export function listInWords(items: string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
}

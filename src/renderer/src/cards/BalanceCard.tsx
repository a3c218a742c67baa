import { formatPoints, signClass } from '../lib/format';
import { Tile } from '../components/Tile';
import { CardFrame } from './shared';
import type { CardProps } from './types';

/** agent.getUpline: the signed-in agent's own standing with their upline. */
export function BalanceCard({ card }: CardProps<'balance_card'>) {
  const d = card.data;
  return (
    <CardFrame type="balance_card" title="Your balance" subtitle={<>with {d.uplineName}</>}>
      <div className="tiles chat-tiles">
        <Tile label="Credit limit" value={formatPoints(d.cl)} note={`from ${d.uplineName}`} testId="balance-cl" />
        <Tile label="Available" value={formatPoints(d.available)} testId="balance-available" tone={d.available < 0 ? 'neg' : undefined} />
        <Tile label="Owed to upline" value={formatPoints(d.owed)} testId="balance-owed"
          note={d.owed < 0 ? `${d.uplineName} owes you ${formatPoints(-d.owed)}` : d.owed === 0 ? 'square' : `you owe ${d.uplineName}`} />
        <Tile label="Net take" value={formatPoints(d.takeNet)} testId="balance-take-net" tone={signClass(d.takeNet)} />
      </div>
    </CardFrame>
  );
}

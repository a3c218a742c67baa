import { formatPoints, signClass, takeInWords } from '../lib/format';
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
        {/* `owed` is the agent's take towards the upline: the upline owes the agent its negation. */}
        <Tile label="With your upline" value={takeInWords(-d.owed, d.uplineName)} testId="balance-owed" tone={signClass(-d.owed)} />
        <Tile label="Net take" value={formatPoints(Math.abs(d.takeNet))} testId="balance-take-net" tone={signClass(d.takeNet)}
          note={netInWords(d.takeNet)} />
      </div>
    </CardFrame>
  );
}

/** The downline's take less what the agent owes upline, all told: in the agent's favour or against. */
export function netInWords(takeNet: number): string {
  return takeNet > 0 ? 'in your favour, all told' : takeNet < 0 ? 'against you, all told' : 'square, all told';
}

import type { ComponentType } from 'react';
import type { Card, CardType } from '../../../shared/contracts/assistant';
import { BalanceCard } from './BalanceCard';
import { BetSlip } from './BetSlip';
import { BetTable } from './BetTable';
import { CommissionTable } from './CommissionTable';
import { DiffCard } from './DiffCard';
import { DownlineTree } from './DownlineTree';
import { ErrorCard } from './ErrorCard';
import { ExposureCard } from './ExposureCard';
import { FixturePicker } from './FixturePicker';
import { PlayerPicker } from './PlayerPicker';
import { PnlTable } from './PnlTable';
import { ReportArtifact } from './ReportArtifact';
import { ReportShare } from './ReportShare';
import { CardCaption } from './shared';
import { SettlementSummary } from './SettlementSummary';
import { SettlementTable } from './SettlementTable';
import { StatementTable } from './StatementTable';
import { TakeTable } from './TakeTable';
import type { CardHandlers, CardProps } from './types';

export type { ActionExtras, CardAction, CardHandlers, CardOf, CardProps, ProposalStatus } from './types';

/** Exactly one renderer per card type: a type without one (or with a second) does not compile. */
const RENDERERS = {
  balance_card: BalanceCard,
  exposure_card: ExposureCard,
  pnl_table: PnlTable,
  take_table: TakeTable,
  commission_table: CommissionTable,
  settlement_summary: SettlementSummary,
  settlement_table: SettlementTable,
  bet_table: BetTable,
  statement_table: StatementTable,
  downline_tree: DownlineTree,
  diff_card: DiffCard,
  report_artifact: ReportArtifact,
  report_share: ReportShare,
  player_picker: PlayerPicker,
  fixture_picker: FixturePicker,
  bet_slip: BetSlip,
  error_card: ErrorCard,
} satisfies { [K in CardType]: ComponentType<CardProps<K>> };

/** One card of an assistant answer, drawn by its type's renderer. Text in cards is React text only. */
export function CardView({ card, onPick, onAction, onEdit, proposal }: { card: Card } & CardHandlers) {
  // The map is keyed by the card's own type, so the props match; TypeScript cannot follow the
  // correlation through the union by itself.
  const Renderer = RENDERERS[card.type] as ComponentType<CardProps<CardType>>;
  if (!Renderer) return <UnknownCard type={String((card as { type: unknown }).type)} />;
  return (
    <CardCaption.Provider value={card.caption ?? null}>
      <Renderer card={card} onPick={onPick} onAction={onAction} onEdit={onEdit} proposal={proposal} />
    </CardCaption.Provider>
  );
}

/** A card type this build does not know (a newer main): said plainly, never guessed at. */
function UnknownCard({ type }: { type: string }) {
  return (
    <section className="chat-card warn" data-testid="card-unknown">
      <p className="chat-card-text">This answer includes a “{type}” card that this version of the desk cannot show.</p>
    </section>
  );
}

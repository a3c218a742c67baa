import type { Card, CardType, ProposalState } from '../../../shared/contracts/assistant';

/** The card of one type, narrowed from the union. */
export type CardOf<K extends CardType> = Extract<Card, { type: K }>;

/** A button a card offers (confirm / cancel / pick), as the tool result sent it. */
export type CardAction = NonNullable<Card['actions']>[number];

/**
 * A proposal card's standing in the conversation, as the chat store knows it (the card's own
 * data says only how it was issued).
 */
export interface ProposalStatus {
  /** The final state a later message (a confirm, cancel or edit answer) gave its nonce, if any. */
  resolved: ProposalState | null;
  /** The answer being sent right now, if any. */
  busy: 'confirm' | 'cancel' | 'edit' | null;
  /** Why the last answer could not be sent, if it could not. */
  error: string | null;
  /** Why main turned the last answer down with the proposal still open (a password not accepted, an edit refused), and which answer. */
  turnedDown?: { answer: 'confirm' | 'cancel' | 'edit'; message: string } | null | undefined;
  /** The reason the user gave when they declined it, if they did. */
  reason?: string | null | undefined;
}

/** What a confirm or cancel carries beside the button: the password again (a large change), a reason for declining. */
export interface ActionExtras {
  password?: string | undefined;
  reason?: string | undefined;
}

/** What every card renderer receives. A missing handler leaves its buttons disabled. */
export interface CardHandlers {
  /** A picker's candidate was chosen: its id. */
  onPick?: ((candidateId: string) => void) | undefined;
  /** One of the card's actions was pressed (with the password or reason the card asked for). */
  onAction?: ((action: CardAction, extras?: ActionExtras) => void) | undefined;
  /** A proposal's amount was changed on the card: `action` names the proposal, `value` is paisa. */
  onEdit?: ((action: CardAction, value: number) => void) | undefined;
  /** Proposal cards (diff_card, settlement_summary, bet_slip, report_share): where the proposal stands. */
  proposal?: ProposalStatus | undefined;
}

export interface CardProps<K extends CardType> extends CardHandlers {
  card: CardOf<K>;
}

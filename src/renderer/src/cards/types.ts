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
  /** The final state a later message (a confirm or cancel answer) gave its nonce, if any. */
  resolved: ProposalState | null;
  /** The answer being sent right now, if any. */
  busy: 'confirm' | 'cancel' | null;
  /** Why the last answer could not be sent, if it could not. */
  error: string | null;
}

/** What every card renderer receives. A missing handler leaves its buttons disabled. */
export interface CardHandlers {
  /** A picker's candidate was chosen: its id. */
  onPick?: ((candidateId: string) => void) | undefined;
  /** One of the card's actions was pressed. */
  onAction?: ((action: CardAction) => void) | undefined;
  /** Proposal cards (diff_card, settlement_summary): where the proposal stands. */
  proposal?: ProposalStatus | undefined;
}

export interface CardProps<K extends CardType> extends CardHandlers {
  card: CardOf<K>;
}

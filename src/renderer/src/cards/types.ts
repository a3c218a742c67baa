import type { Card, CardType } from '../../../shared/contracts/assistant';

/** The card of one type, narrowed from the union. */
export type CardOf<K extends CardType> = Extract<Card, { type: K }>;

/** A button a card offers (confirm / cancel / pick), as the tool result sent it. */
export type CardAction = NonNullable<Card['actions']>[number];

/** What every card renderer receives. A missing handler leaves its buttons disabled. */
export interface CardHandlers {
  /** A picker's candidate was chosen: its id. */
  onPick?: ((candidateId: string) => void) | undefined;
  /** One of the card's actions was pressed. */
  onAction?: ((action: CardAction) => void) | undefined;
}

export interface CardProps<K extends CardType> extends CardHandlers {
  card: CardOf<K>;
}

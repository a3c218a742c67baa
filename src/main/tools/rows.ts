/**
 * What a read tool's rows are, as data: where the result keeps them, what names a row, which
 * columns it has under the names a question uses, and which of a question's operators the
 * backend runs for it. The assistant's frame reads these declarations to turn "who owes me the
 * most" into arguments (an order, a limit) and to say the answer from the rows; a tool holds no
 * words of the question itself.
 */

/** The columns a question may ask about; each tool maps the ones its rows have to its fields. */
export const COLUMN_CONCEPTS = ['take', 'creditLimit', 'available', 'pnl', 'commission', 'stake', 'exposure', 'bets', 'odds', 'potentialWin', 'amount'] as const;
export type ColumnConcept = (typeof COLUMN_CONCEPTS)[number];

/** What rows may be grouped by: their match, their player's sub-agent, their player, their day. */
export const GROUP_KEYS = ['fixture', 'agent', 'player', 'day'] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];

/** A grouping a tool's rows hold: the row field whose value is the group, and the field naming it. */
export interface GroupField {
  /** The field the rows are grouped on; for `day`, an instant read as a day in the user's timezone. */
  key: string;
  /** The field naming the group; absent when the key is its own name (a day, an agent's name). */
  name?: string;
}

export interface RowsDeclaration {
  /** The output field that holds the rows ("rows", "bets", "fixtures"). */
  list: string;
  /** The row field that names it ("name", "playerName", "fixtureName"), and the field of that one's id. */
  name: string;
  id: string;
  /** What one row is: one account's row answers no question about many, one bet's list still does. */
  row: 'account' | 'bet' | 'fixture' | 'settlement';
  /** A row in words, singular and plural. */
  noun: readonly [string, string];
  /** Column concept → the row's field holding it. */
  columns: Partial<Record<ColumnConcept, string>>;
  /** The column a superlative or a total is about when the words name none. */
  measure: ColumnConcept;
  /** The groupings the rows can answer ("bets per match"), each by its fields. */
  groups?: Partial<Record<GroupKey, GroupField>>;
  /** Columns whose figures are counts or odds, not money. */
  plain?: readonly ColumnConcept[];
  /**
   * The operators the backend runs for this tool, so a filter holds for every row and a count is
   * of the whole result, not of a page. Absent: the result is complete (not paged) and the
   * operators run over it in main.
   */
  backend?: {
    /** Column concepts the input's `where` takes (by the row field's name). */
    where: readonly ColumnConcept[];
    /** The input field that orders the rows and the column concepts it takes. */
    order: { field: 'orderBy' | 'sort'; columns: readonly ColumnConcept[] };
    /** Input fields for a direction of take, a role, and a sub-agent whose accounts are meant. */
    direction?: boolean;
    role?: boolean;
    underAgent?: boolean;
    /** The output field counting every row that matched, over all pages. */
    matched: string;
    /** Output paths of totals over every matched row, per column concept ("totals.take"). */
    totals?: Partial<Record<ColumnConcept, string>>;
    /** The most rows one call may return (the input's `limit` maximum). */
    pageMax: number;
    /**
     * Groupings the backend adds up over every matched row when the input's `groupBy` names one:
     * the output list of groups (each with `key`, `name` and `count`) and the column concepts each group sums, by field.
     */
    grouped?: { by: readonly GroupKey[]; list: string; columns: Partial<Record<ColumnConcept, string>> };
  };
}

import { sql } from 'drizzle-orm';

/*
 * A bet's figures (domain/bets.ts) as SQL over bets `b`, for reads that compute them per row and
 * rollups that sum them: the same arithmetic, PostgreSQL's numeric round being half away from zero
 * as mulDivRound is.
 */

/** stake × (odds − 1). */
export const STAKE_TIMES_ODDS_LESS_ONE = sql`round(b.stake::numeric * (b.odds - 100) / 100)::bigint`;
/** The most the player can lose (liability). */
export const LIABILITY = sql`(case when b.side = 'back' then b.stake else ${STAKE_TIMES_ODDS_LESS_ONE} end)`;
/** What the player wins if the bet wins (potentialWin). */
export const POTENTIAL_WIN = sql`(case when b.side = 'back' then ${STAKE_TIMES_ODDS_LESS_ONE} else b.stake end)`;
/** The player's result if outcome `o` wins the bet's market (betResult). */
export const RESULT_IF_OUTCOME_WINS = sql`(case when (b.outcome_id = o.id) = (b.side = 'back') then ${POTENTIAL_WIN} else -${LIABILITY} end)`;

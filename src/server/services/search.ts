import { type SQL, sql } from 'drizzle-orm';
import { type FixtureRef, type PlayerRef, id as fixtureIdSchema } from '../../shared/contracts/agent-api.js';
import { anchorWords, isTypoOf, nameMatches } from '../../shared/fuzzy.js';
import { normalizeForSearch } from '../../shared/text.js';
import { queryRows } from '../db/client.js';
import { type Caller, type ServiceDeps, inDownline } from './caller.js';

/** Below this trigram word-similarity a name is not offered as a fuzzy match. */
const FUZZY_THRESHOLD = 0.45;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Accounts of the caller's downline by name, in tiers: the whole name (accents and case ignored),
 * then names whose words start with every word typed, and only when neither finds anything,
 * trigram likeness for misspellings.
 */
export async function searchPlayers(deps: ServiceDeps, caller: Caller, query: string, limit: number): Promise<PlayerRef[]> {
  const q = normalizeForSearch(query);
  if (!q) return [];
  const words = q.split(' ');
  const everyWordStarts = sql.join(
    words.map((w) => sql`(' ' || a.search_name) like ${`% ${likeEscape(w)}%`}`),
    sql` and `,
  );
  const rows = await queryRows<FoundRow>(deps.db, sql`
    select a.id, a.display_name as name, a.username, a.role, p.id as agent_id, p.display_name as agent_name,
      case when a.search_name = ${q} or lower(a.username) = ${q} then 'exact' else 'prefix' end as match
    from accounts a join accounts p on p.id = a.parent_id
    where ${inDownline(caller, 'a')} and (${everyWordStarts} or lower(a.username) like ${`${likeEscape(q)}%`})
    order by (a.search_name = ${q}) desc, a.role = 'player' desc, a.display_name, a.id
    limit ${limit}`);
  if (rows.length > 0) return rows.map(toPlayerRef);
  return (await fuzzyPlayers(deps, caller, q)).slice(0, limit).map(toPlayerRef);
}

type FoundRow = { id: string; name: string; username: string; role: PlayerRef['role']; agent_id: string; agent_name: string; match: PlayerRef['match'] };

/**
 * The fuzzy tier, best first. Trigrams miss another romanisation of a name ("laxmi" shares too few
 * with "lakshmi"), a swapped pair ("lakhsmi") or a name typed without vowels ("krn mlhtra"), and
 * may rank others above it: names are also matched as the assistant matches them (fuzzy.ts: a
 * typo, the same name by ear), and those come first, A→Z; then the trigram-alike, likest first.
 * Both are found through indexes, so the time grows with the names that could match rather than
 * with the downline: the by-ear candidates hold an anchor word (matched in the vocabulary of
 * name words, `name_words`), the trigram ones pass the index's word-similarity threshold, set
 * for this transaction.
 */
async function fuzzyPlayers(deps: ServiceDeps, caller: Caller, q: string): Promise<FoundRow[]> {
  return deps.db.transaction(async (tx) => {
    const vocabulary = await queryRows<{ word: string }>(tx, sql`select word from name_words`);
    const anchors = [...anchorWords(q, vocabulary.map((v) => v.word))];
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(FUZZY_THRESHOLD)}, true)`);
    const candidates = await queryRows<FoundRow & { search_name: string; likeness: number }>(tx, sql`
      select a.id, a.display_name as name, a.username, a.role, p.id as agent_id, p.display_name as agent_name, 'fuzzy' as match,
        a.search_name, word_similarity(${q}, a.search_name) as likeness
      from accounts a join accounts p on p.id = a.parent_id
      where ${inDownline(caller, 'a')}
        and (${q} <% a.search_name or string_to_array(a.search_name, ' ') && ${sql.param(anchors)}::text[])
      order by a.display_name, a.id`);
    const typoOrSound = candidates.filter((r) => nameMatches(q, r.search_name));
    const seen = new Set(typoOrSound.map((r) => r.id));
    // A stable sort: equally alike names stay A→Z.
    const alike = candidates.filter((r) => !seen.has(r.id) && Number(r.likeness) >= FUZZY_THRESHOLD)
      .sort((a, b) => Number(b.likeness) - Number(a.likeness));
    return [...typoOrSound, ...alike];
  });
}

function toPlayerRef(r: { id: string; name: string; username: string; role: PlayerRef['role']; agent_id: string; agent_name: string; match: PlayerRef['match'] }): PlayerRef {
  return { id: r.id, name: r.name, username: r.username, role: r.role, agentId: r.agent_id, agentName: r.agent_name, match: r.match };
}

/** Words that join team names in a question and name no team. */
const FIXTURE_STOPWORDS = new Set(['vs', 'v', 'versus', 'against', 'x', 'the', 'match', 'game', 'fixture', 'on', 'of', 'in', 'and', 'at']);

/** A sport named in a question, and the fixtures' name for it. */
const SPORTS: Readonly<Record<string, string>> = { cricket: 'cricket', tennis: 'tennis', football: 'football', soccer: 'football' };

/**
 * Fixtures by team names or short codes ("IND v AUS", "MI vs CSK", "the India match"), in any
 * order: every team word typed must be a whole word of the fixture, else the start of one, else
 * like one (likeWords: a misspelling, but never another team); the best tier found is the answer.
 * Two teams no fixture has together find nothing, never a match of one of them. A sport typed
 * narrows the search to it; a sport alone ("the tennis") is that sport's match on now, or when
 * none is, its nearest in time. Hits come live first, then upcoming, then finished, each nearest
 * in time first. Fixtures are the exchange's, not scoped.
 */
export async function searchFixtures(deps: ServiceDeps, query: string, limit: number): Promise<FixtureRef[]> {
  // A fixture's own id (the page the user is on names it so): that fixture, with its markets.
  if (fixtureIdSchema.safeParse(query.trim().toLowerCase()).success) {
    const found = await queryRows<{ id: string }>(deps.db, sql`select f.id from fixtures f where f.id = ${query.trim().toLowerCase()}::uuid`);
    return found.length === 0 ? [] : fixtureRefs(deps, found.map((f) => f.id));
  }
  const typed = normalizeForSearch(query).split(' ').filter((w) => w && !FIXTURE_STOPWORDS.has(w));
  const sport = typed.map((w) => SPORTS[w]).find((s) => s !== undefined) ?? null;
  const words = typed.filter((w) => !Object.hasOwn(SPORTS, w));
  if (words.length === 0 && sport === null) return [];
  const now = deps.now();
  const ofSport = sport === null ? sql`true` : sql`f.sport = ${sport}`;
  const nearestFirst = sql`order by case f.status when 'live' then 0 when 'scheduled' then 1 else 2 end,
    abs(extract(epoch from (f.starts_at - ${now.toISOString()}::timestamptz))), f.id`;
  if (words.length === 0) {
    const found = await queryRows<{ id: string; status: string }>(deps.db, sql`
      select f.id, f.status from fixtures f where ${ofSport} and f.status <> 'finished' ${nearestFirst} limit ${limit}`);
    const live = found.filter((f) => f.status === 'live');
    return found.length === 0 ? [] : fixtureRefs(deps, (live.length > 0 ? live : found).map((f) => f.id));
  }
  const whole = (w: string) => sql`(' ' || f.search_text || ' ') like ${`% ${likeEscape(w)} %`}`;
  const start = (w: string) => sql`(' ' || f.search_text) like ${`% ${likeEscape(w)}%`}`;
  const tiers = [
    async () => sql.join(words.map(whole), sql` and `),
    // A word that is itself a team's name or code stays that team: "pak vs ind" is no Pakistan vs
    // West Indies ("ind" starts "indies", but IND is India's code).
    async () => {
      const named = await teamWords(deps, words);
      return sql.join(words.map((w, i) => (named[i] ? whole(w) : start(w))), sql` and `);
    },
    () => likeWords(deps, words),
  ];
  for (const tier of tiers) {
    const condition = await tier();
    const found = await queryRows<{ id: string }>(deps.db, sql`
      select f.id from fixtures f where ${condition} and ${ofSport} ${nearestFirst} limit ${limit}`);
    if (found.length > 0) return fixtureRefs(deps, found.map((f) => f.id));
  }
  // "inida vs austrlia": too far for trigrams, but each word a typo of one team word (isTypoOf, as
  // names are matched: two letters swapped, one missing) is that word, searched as it is spelt.
  const spelt = await teamWordsSpelt(deps, words);
  if (spelt) {
    const found = await queryRows<{ id: string }>(deps.db, sql`
      select f.id from fixtures f where ${sql.join(spelt.map(whole), sql` and `)} and ${ofSport} ${nearestFirst} limit ${limit}`);
    if (found.length > 0) return fixtureRefs(deps, found.map((f) => f.id));
  }
  return [];
}

/** The typed words with each misspelt one replaced by the one team word it is a typo of; null when none is, or one is a typo of several. */
async function teamWordsSpelt(deps: ServiceDeps, words: string[]): Promise<string[] | null> {
  const rows = await queryRows<{ search_text: string }>(deps.db, sql`select distinct f.search_text from fixtures f`);
  const known = new Set(rows.flatMap((r) => r.search_text.split(' ')).filter((w) => w.length >= 4));
  let changed = false;
  const spelt: string[] = [];
  for (const w of words) {
    if (known.has(w) || w.length < 4) {
      spelt.push(w);
      continue;
    }
    const like = [...known].filter((k) => isTypoOf(w, k));
    if (like.length !== 1) return null;
    spelt.push(like[0]!);
    changed = true;
  }
  return changed ? spelt : null;
}

/**
 * The loosest tier: every word typed is like a word of the fixture (a misspelling, "austrlia"),
 * but a word that names a team of the book (a whole word of some fixture: a team's name or short
 * code) must be one of the fixture's own: "India Pakistan" or "Bhutan vs India" is a match no
 * fixture is, never another India match.
 */
async function likeWords(deps: ServiceDeps, words: string[]): Promise<SQL> {
  const named = await teamWords(deps, words);
  return sql.join(words.map((w, i) => (named[i]
    ? sql`(' ' || f.search_text || ' ') like ${`% ${likeEscape(w)} %`}`
    : sql`word_similarity(${w}, f.search_text) >= ${FUZZY_THRESHOLD}`)), sql` and `);
}

/** For each word, whether it is a whole word of some fixture: a team's name or short code. */
async function teamWords(deps: ServiceDeps, words: string[]): Promise<boolean[]> {
  const named = await queryRows<Record<string, boolean>>(deps.db, sql`select ${sql.join(
    words.map((w, i) => sql`exists (select 1 from fixtures f where (' ' || f.search_text || ' ') like ${`% ${likeEscape(w)} %`}) as ${sql.raw(`w${i}`)}`),
    sql`, `,
  )}`);
  return words.map((_, i) => named[0]?.[`w${i}`] === true);
}

async function fixtureRefs(deps: ServiceDeps, ids: string[]): Promise<FixtureRef[]> {
  const rows = await queryRows<{
    fixture_id: string; fixture_name: string; sport: string; starts_at: Date | string; fixture_status: FixtureRef['status'];
    market_id: string | null; market_name: string | null; market_status: FixtureRef['markets'][number]['status'] | null;
    outcome_id: string | null; outcome_name: string | null; outcome_aliases: string[] | null;
  }>(deps.db, sql`
    select f.id as fixture_id, f.name as fixture_name, f.sport, f.starts_at, f.status as fixture_status,
      m.id as market_id, m.name as market_name, m.status as market_status, o.id as outcome_id, o.name as outcome_name,
      (select t.short_codes from teams t where t.id in (f.home_team_id, f.away_team_id) and t.name = o.name limit 1) as outcome_aliases
    from fixtures f left join markets m on m.fixture_id = f.id left join outcomes o on o.market_id = m.id
    where f.id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})
    order by m.ordinal, o.ordinal`);
  const byId = new Map<string, FixtureRef>();
  for (const r of rows) {
    let fixture = byId.get(r.fixture_id);
    if (!fixture) {
      fixture = { id: r.fixture_id, name: r.fixture_name, sport: r.sport, startsAt: new Date(r.starts_at).toISOString(), status: r.fixture_status, markets: [] };
      byId.set(r.fixture_id, fixture);
    }
    if (!r.market_id) continue;
    let market = fixture.markets.find((m) => m.id === r.market_id);
    if (!market) {
      market = { id: r.market_id, name: r.market_name!, status: r.market_status!, outcomes: [] };
      fixture.markets.push(market);
    }
    if (r.outcome_id) market.outcomes.push({ id: r.outcome_id, name: r.outcome_name!, ...(r.outcome_aliases?.length ? { aliases: r.outcome_aliases } : {}) });
  }
  return ids.map((i) => byId.get(i)!);
}

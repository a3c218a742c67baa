import { QueryCache, QueryClient, infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { desk, type DeskClient } from './desk';
import { isUnauthorized, isUnreachable } from './errors';
import { keepAnswers, offlineCache, restoreAnswers } from './offline-cache';
import { reportReachable, reportUnreachable, useReachability } from './reachability';
import { useSession } from './session';

/**
 * The renderer's page data, through TanStack Query. Every query is keyed by its desk procedure's
 * path and input (`['panel', 'player', { playerId }]`), so a change can invalidate exactly the
 * procedures it affects: a prefix (`['panel']`) reaches every input of every procedure below it.
 */
type Panel = DeskClient['panel'];
type PanelQuery = { [K in keyof Panel]: Panel[K] extends { query: (...args: never[]) => unknown } ? K : never }[keyof Panel];
type Proc<K extends PanelQuery> = Panel[K] extends { query: (input: infer I) => Promise<infer O> } ? { input: I; output: O } : never;
export type PanelInput<K extends PanelQuery> = Proc<K>['input'];
export type PanelOutput<K extends PanelQuery> = Proc<K>['output'];

function callPanel<K extends PanelQuery>(name: K, input: PanelInput<K>): Promise<PanelOutput<K>> {
  // One call for every procedure: TypeScript cannot relate `desk.panel[name]` to `name`'s own types.
  const proc = desk.panel[name] as unknown as { query(input: PanelInput<K>): Promise<PanelOutput<K>> };
  return proc.query(input);
}

/** The options of one `panel.*` query: its key is its path and input. */
export function panelQuery<K extends PanelQuery>(name: K, input: PanelInput<K>) {
  return queryOptions({ queryKey: ['panel', name, input ?? null] as const, queryFn: () => callPanel(name, input) });
}

type Paged = { [K in PanelQuery]: PanelOutput<K> extends { nextCursor: string | null } ? K : never }[PanelQuery];

/** A keyset-paged `panel.*` list: each further page asks with the cursor the last one gave. */
export function panelPages<K extends Paged>(name: K, input: PanelInput<K>) {
  return infiniteQueryOptions({
    queryKey: ['panel', name, input ?? null, 'pages'] as const,
    queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
      callPanel(name, { ...(input as object), ...(pageParam !== undefined && { cursor: pageParam }) } as PanelInput<K>),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: PanelOutput<K>) => (page as { nextCursor: string | null }).nextCursor ?? undefined,
  });
}

/** Main's audit log with its verification. */
export function auditListQuery() {
  return queryOptions({ queryKey: ['audit', 'list'] as const, queryFn: () => desk.audit.list.query() });
}

/**
 * The one query client. A query that finds the backend unreachable keeps its data and reports
 * the outage to lib/reachability.ts, whose loop probes with backoff; the queries themselves do
 * not retry (that would hammer a backend that is down). When the backend answers again, every
 * query fetches afresh. An UNAUTHORIZED answer signs the user out.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      if (isUnreachable(error)) { reportUnreachable(); return; }
      reportReachable();
      if (isUnauthorized(error)) useSession.getState().expired();
    },
    onSuccess: () => reportReachable(),
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
  },
});

// Queries only: a subscription (the event feed) is no query and keeps its own resume point across the outage.
useReachability.subscribe((s, prev) => {
  if (s.epoch !== prev.epoch) void queryClient.invalidateQueries();
});

keepAnswers(queryClient, offlineCache, () => {
  const s = useSession.getState();
  return s.status === 'signed-in' ? s.user?.id ?? null : null;
});

useSession.subscribe((s, prev) => {
  // Another user signs in next: nothing of this one's data may be shown to them, here or after a reload.
  if (s.status === 'signed-out' && prev.status !== 'signed-out') {
    queryClient.clear();
    offlineCache.clear();
  }
  // Before the panel renders: a reload while the backend is away opens on the last answers, marked with their age.
  if (s.status === 'signed-in' && s.user && (prev.status !== 'signed-in' || prev.user?.id !== s.user.id)) restoreAnswers(queryClient, offlineCache, s.user.id);
});

/**
 * The player's own agent (it may be a sub-agent), for the take in words: found through the
 * name search, which is scoped to the user's downline. Waits until the name is known.
 */
export function playerAgentQuery(playerId: string, name: string | null) {
  const input = { query: (name ?? '').slice(0, 200), limit: 50 };
  return queryOptions({
    ...panelQuery('searchPlayers', input),
    enabled: name !== null && name !== '',
    select: (found: PanelOutput<'searchPlayers'>) => {
      const p = found.players.find((x) => x.id === playerId);
      return p ? { id: p.agentId, name: p.agentName } : null;
    },
  });
}

/** Names of players by id, through their credit limits; a failed lookup leaves the name out. */
export function playerNamesQuery(playerIds: readonly string[]) {
  return queryOptions({
    queryKey: ['panel', 'creditLimits', { names: playerIds }] as const,
    queryFn: () => Promise.all(playerIds.map((playerId) => callPanel('creditLimits', { playerId }).then(
      (r) => [playerId, r.rows.find((row) => row.accountId === playerId)?.name ?? null] as const,
      () => [playerId, null] as const,
    ))),
  });
}

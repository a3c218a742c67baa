import { useEffect, useMemo, useState } from 'react';
import type { DownlineNode } from '../../../shared/contracts/agent-api';
import { panelQuery } from '../lib/queries';
import { formatBps, formatPoints, signClass, takeTowards } from '../lib/format';
import { useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { useDeskQuery } from '../lib/useQuery';
import { Link } from '../components/Link';
import { Loadable } from '../components/States';
import { countNodes, matchingRows, visibleRows } from '../lib/tree';
import { TableSearch, nameMatcher } from '../components/TableSearch';
import { ExportMenu, exportNames } from '../components/ExportMenu';

/** The whole downline the API gives in one answer (it cuts at its node cap and says so). */
const DEPTH = 10;

/** Ids from the root down to `id`, or null when it is not in the tree. */
function pathTo(nodes: DownlineNode[], id: string): string[] | null {
  for (const n of nodes) {
    if (n.id === id) return [n.id];
    const below = pathTo(n.children, id);
    if (below) return [n.id, ...below];
  }
  return null;
}

export function DownlinePage() {
  const state = useDeskQuery(panelQuery('downline', { depth: DEPTH }));
  const agentId = useRoute((s) => s.query.agentId);
  return (
    <section aria-labelledby="downline-title">
      <h1 id="downline-title">Downline</h1>
      <Loadable state={state} empty={(d) => d.tree.length === 0}>
        {(d) => <DownlineTree tree={d.tree} truncated={d.truncated} focusId={agentId} />}
      </Loadable>
    </section>
  );
}

function DownlineTree({ tree, truncated, focusId }: { tree: DownlineNode[]; truncated: boolean; focusId: string | undefined }) {
  const me = useSession((s) => s.user)!;
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const focusPath = useMemo(() => (focusId ? pathTo(tree, focusId) : null), [tree, focusId]);

  // The agent named in the page opens, with the way down to it, and takes the focus.
  useEffect(() => {
    if (!focusId || !focusPath) return;
    setOpen((prev) => new Set([...prev, ...focusPath]));
    requestAnimationFrame(() => {
      const row = document.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(focusId)}"]`);
      row?.querySelector<HTMLElement>('button, a')?.focus();
      row?.scrollIntoView({ block: 'nearest' });
    });
  }, [focusId, focusPath]);

  const toggle = (id: string) => setOpen((prev) => {
    const next = new Set(prev);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });

  const [query, setQuery] = useState('');
  const match = nameMatcher(query);
  const root = { id: me.id, name: me.name };
  // A search shows every account that matches with the way down to it, whatever is open.
  const rows = match ? matchingRows(tree, (n) => match(n.name, n.username), root) : visibleRows(tree, open, root);
  const shownOpen = (id: string) => (match ? rows.some((r) => r.parent.id === id) : open.has(id));

  return (
    <>
      {focusId && !focusPath && <p className="state error" role="alert">That account is not in your downline.</p>}
      <div className="toolbar">
        <button type="button" onClick={() => {
          const all = new Set<string>();
          const collect = (nodes: DownlineNode[]) => { for (const n of nodes) if (n.children.length) { all.add(n.id); collect(n.children); } };
          collect(tree);
          setOpen(all);
        }}>Expand all</button>
        <button type="button" onClick={() => setOpen(new Set())}>Collapse all</button>
      </div>
      <ExportMenu request={{ table: 'downline', query: { depth: DEPTH }, ...exportNames(query) }} />
      <TableSearch query={query} onChange={setQuery} label="Search the downline by name" shown={match ? rows.filter((r) => match(r.node.name, r.node.username)).length : 0}
        total={countNodes(tree)} testId="downline-search" />
      <div className="table-scroll">
        <table className="table tree" data-testid="downline-tree">
          <thead>
            <tr>
              <th scope="col">Name</th><th scope="col" className="col-p3">Role</th><th scope="col" className="num nowrap col-p2">Share / comm.</th>
              <th scope="col" className="num">CL</th><th scope="col">Take</th><th scope="col" className="num">Available</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ node, level, parent }) => (
              <tr key={node.id} data-node-id={node.id} data-testid="downline-node" data-role={node.role}
                className={node.id === focusId ? 'focused' : undefined}>
                <td>
                  <span className="tree-name" style={{ paddingLeft: `${(level - 1) * 20}px` }}>
                    {node.role === 'agent' ? (
                      <button type="button" className="tree-toggle" aria-expanded={shownOpen(node.id)} data-testid="downline-toggle"
                        disabled={node.children.length === 0 || match !== null} aria-label={`${node.name}, ${node.childCount} in downline`}
                        onClick={() => toggle(node.id)}>
                        <span aria-hidden="true" className="caret">{node.children.length === 0 ? '·' : shownOpen(node.id) ? '▾' : '▸'}</span>
                        {node.name}
                        <span className="muted"> ({node.childCount})</span>
                      </button>
                    ) : (
                      <Link to={`/agent/players/${node.id}`} className="tree-leaf" data-testid="downline-player-link">{node.name}</Link>
                    )}
                    <span className="muted username">@{node.username}</span>
                  </span>
                </td>
                <td className="col-p3">{node.role}</td>
                <td className="num col-p2">{node.role === 'agent' ? formatBps(node.shareBps) : formatBps(node.commissionBps)}</td>
                <td className="num">{formatPoints(node.creditLimit)}</td>
                <td className={signClass(node.take)} data-testid="downline-take">{takeTowards(node.take, parent, me.id)}</td>
                <td className="num">{formatPoints(node.available)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {truncated && <p className="state">The downline is larger than one answer holds; the deepest accounts are not shown.</p>}
    </>
  );
}

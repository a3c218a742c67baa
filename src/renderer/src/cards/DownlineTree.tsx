import { useState } from 'react';
import type { DownlineNode } from '../../../shared/contracts/agent-api';
import { formatBps, formatPoints, signClass, takeTowards } from '../lib/format';
import { CardFrame, plural, useMe } from './shared';
import { PlayerLink } from './PlayerLink';
import type { CardProps } from './types';
import { visibleRows } from '../lib/tree';

function count(nodes: DownlineNode[]): number {
  return nodes.reduce((n, x) => n + 1 + count(x.children), 0);
}

/** agent.getDownline: the tree of sub-agents and players, each agent collapsible. */
export function DownlineTree({ card }: CardProps<'downline_tree'>) {
  const { tree, truncated } = card.data;
  const me = useMe();
  const [open, setOpen] = useState<Set<string>>(() => new Set(tree.length === 1 ? [tree[0]!.id] : []));
  const toggle = (id: string) => setOpen((prev) => {
    const next = new Set(prev);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });
  const expandAll = () => {
    const all = new Set<string>();
    const walk = (nodes: DownlineNode[]) => { for (const n of nodes) if (n.children.length) { all.add(n.id); walk(n.children); } };
    walk(tree);
    setOpen(all);
  };

  const rows = visibleRows(tree, open, { id: me.id, name: me.name });
  const total = count(tree);

  return (
    <CardFrame wide type="downline_tree" title="Downline" subtitle={<>{total} {plural(total, 'account')}</>}>
      {tree.length === 0 ? <p className="state empty chat-card-text">No one in your downline yet.</p> : (
        <>
          <div className="toolbar chat-toolbar">
            <button type="button" onClick={expandAll}>Expand all</button>
            <button type="button" onClick={() => setOpen(new Set())}>Collapse all</button>
          </div>
          <div className="card-scroll" tabIndex={0} role="region" aria-label="Downline">
            <table className="table tree card-table" style={{ minWidth: '560px' }}>
              <thead>
                <tr>
                  <th scope="col">Name</th><th scope="col" className="num nowrap">Share / comm.</th>
                  <th scope="col" className="num">CL</th><th scope="col">Take</th><th scope="col" className="num">Available</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ node, level, parent }) => (
                  <tr key={node.id} data-testid="card-row" data-role={node.role}>
                    <td>
                      <span className="tree-name" style={{ paddingLeft: `${(level - 1) * 16}px` }}>
                        {node.children.length > 0 ? (
                          <button type="button" className="tree-toggle" aria-expanded={open.has(node.id)} onClick={() => toggle(node.id)}
                            aria-label={`${node.name}, ${node.childCount} in downline`} data-testid="tree-toggle">
                            <span aria-hidden="true" className="caret">{open.has(node.id) ? '▾' : '▸'}</span>
                            {node.name}
                            <span className="muted"> ({node.childCount})</span>
                          </button>
                        ) : node.role === 'player' ? (
                          <span className="tree-leaf"><PlayerLink id={node.id} name={node.name} /></span>
                        ) : (
                          <span className="tree-leaf">{node.name} <span className="muted">({node.childCount})</span></span>
                        )}
                        <span className="muted username">@{node.username}</span>
                      </span>
                    </td>
                    <td className="num">{node.role === 'agent' ? formatBps(node.shareBps) : formatBps(node.commissionBps)}</td>
                    <td className="num">{formatPoints(node.creditLimit)}</td>
                    <td className={`nowrap ${signClass(node.take)}`}>{takeTowards(node.take, parent, me.id)}</td>
                    <td className="num">{formatPoints(node.available)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {truncated && <p className="muted chat-card-text">The downline is larger than one answer holds; the deepest accounts are not shown.</p>}
    </CardFrame>
  );
}

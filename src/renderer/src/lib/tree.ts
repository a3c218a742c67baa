import type { DownlineNode } from '../../../shared/contracts/agent-api';

export interface TreeRow {
  node: DownlineNode;
  level: number;
  parent: { id: string; name: string };
}

/** The rows a collapsible downline shows: every node whose ancestors are all open, in tree order. */
export function visibleRows(tree: DownlineNode[], open: ReadonlySet<string>, root: { id: string; name: string }): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: DownlineNode[], level: number, parent: { id: string; name: string }) => {
    for (const node of nodes) {
      rows.push({ node, level, parent });
      if (open.has(node.id)) walk(node.children, level + 1, { id: node.id, name: node.name });
    }
  };
  walk(tree, 1, root);
  return rows;
}

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

export function countNodes(tree: DownlineNode[]): number {
  return tree.reduce((n, node) => n + 1 + countNodes(node.children), 0);
}

/**
 * The rows of a search: every node that matches, with the way down to it (opened), in tree
 * order; a branch with no match below it is left out.
 */
export function matchingRows(tree: DownlineNode[], matches: (node: DownlineNode) => boolean, root: { id: string; name: string }): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: DownlineNode[], level: number, parent: { id: string; name: string }): boolean => {
    let any = false;
    for (const node of nodes) {
      const at = rows.length;
      rows.push({ node, level, parent });
      const below = walk(node.children, level + 1, { id: node.id, name: node.name });
      if (below || matches(node)) any = true;
      else rows.length = at;
    }
    return any;
  };
  walk(tree, 1, root);
  return rows;
}

/**
 * The dependency graph (GET .../dependency-graph) as a tree to expand from its roots: each
 * node's children in the order the API sent the edges (breadth first from the dependency
 * files), and the roots (file nodes, then nodes no edge points to). Nothing is inferred beyond
 * the edges: a node with two parents appears under both, and a cycle is cut where it closes.
 */
export interface GraphNodeLike {
  nodeId: string;
  kind: string;
}

export interface GraphTree<N extends GraphNodeLike> {
  nodes: ReadonlyMap<string, N>;
  children: ReadonlyMap<string, readonly string[]>;
  roots: readonly string[];
}

export function graphTree<N extends GraphNodeLike>(graph: {
  nodes: readonly N[];
  edges: readonly { from: string; to: string }[];
}): GraphTree<N> {
  const nodes = new Map(graph.nodes.map((node) => [node.nodeId, node]));
  const children = new Map<string, string[]>();
  const pointedTo = new Set<string>();
  for (const { from, to } of graph.edges) {
    if (!nodes.has(from) || !nodes.has(to)) continue;
    const list = children.get(from);
    if (list) {
      if (!list.includes(to)) list.push(to);
    } else children.set(from, [to]);
    pointedTo.add(to);
  }
  const files = graph.nodes.filter((node) => node.kind === 'file').map((node) => node.nodeId);
  const orphans = graph.nodes
    .filter((node) => node.kind !== 'file' && !pointedTo.has(node.nodeId))
    .map((node) => node.nodeId);
  return { nodes, children, roots: [...files, ...orphans] };
}

/** Whether expanding `nodeId` under `ancestors` (root first) would close a cycle. */
export function closesCycle(ancestors: readonly string[], nodeId: string): boolean {
  return ancestors.includes(nodeId);
}

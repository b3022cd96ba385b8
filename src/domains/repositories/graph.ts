import { compositeKey } from '../../core/composite-key';
import type { RepositoryDependencyRow } from './store';

/**
 * The dependency graph of a repository from its stored dependencies. Nodes: one per dependency
 * file (the project's root as that file sees it) and one per stored dependency. Edges: from each
 * recorded parent (by name, within the same file: that is how lockfiles record edges) to the
 * dependency, and from the file to its direct dependencies and to those whose recorded parent is
 * not itself a dependency (the project's own crate, module or package). Edges are emitted
 * breadth-first from the file roots, so a truncated graph is the part nearest the roots.
 */
export interface GraphNode {
  nodeId: string;
  kind: 'file' | 'package';
  ecosystem: string;
  name: string;
  version: string | null;
  purl: string | null;
  packageId: string | null;
  direct: boolean;
  scope: string | null;
  file: string;
}

export interface GraphEdge {
  from: string;
  to: string;
}

export interface DependencyGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  totalEdges: number;
  truncated: boolean;
}

const fileNodeId = (path: string) => `file:${path}`;

type Children = Map<string, string[]>;

function addEdge(children: Children, from: string, to: string): void {
  const list = children.get(from);
  if (list) {
    if (!list.includes(to)) list.push(to);
  } else children.set(from, [to]);
}

/** The rows grouped by manifest file, files in path order. */
function byFile(rows: RepositoryDependencyRow[]): [string, RepositoryDependencyRow[]][] {
  const files = new Map<string, RepositoryDependencyRow[]>();
  for (const row of rows) {
    const list = files.get(row.file);
    if (list) list.push(row);
    else files.set(row.file, [row]);
  }
  return [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * One file's nodes (the file, its packages) and edges: a package hangs under each parent of that
 * name in the same file, and under the file when direct or without a parent found.
 */
function addFile(
  graph: { nodes: Map<string, GraphNode>; children: Children },
  file: string,
  deps: RepositoryDependencyRow[],
): string {
  const { nodes, children } = graph;
  const root = fileNodeId(file);
  nodes.set(root, {
    nodeId: root,
    kind: 'file',
    ecosystem: deps[0]?.ecosystem ?? '',
    name: file,
    version: null,
    purl: null,
    packageId: null,
    direct: false,
    scope: null,
    file,
  });
  const byName = new Map<string, string[]>();
  for (const dep of deps) {
    nodes.set(dep.id, {
      nodeId: dep.id,
      kind: 'package',
      ecosystem: dep.ecosystem,
      name: dep.name,
      version: dep.version,
      purl: dep.purl,
      packageId: dep.package_id,
      direct: dep.direct,
      scope: dep.scope,
      file,
    });
    const ids = byName.get(dep.name);
    if (ids) ids.push(dep.id);
    else byName.set(dep.name, [dep.id]);
  }
  for (const dep of deps) {
    let linked = false;
    for (const parent of dep.parents) {
      for (const parentId of byName.get(parent) ?? []) {
        if (parentId === dep.id) continue;
        addEdge(children, parentId, dep.id);
        linked = true;
      }
    }
    if (dep.direct || !linked) addEdge(children, root, dep.id);
  }
  return root;
}

/** At most `maxEdges` edges, breadth first from the roots, and the nodes they touch. */
function takeEdges(children: Children, roots: string[], maxEdges: number, totalEdges: number) {
  const edges: GraphEdge[] = [];
  const kept = new Set<string>(roots);
  const queue = [...roots];
  const expanded = new Set<string>();
  outer: while (queue.length > 0) {
    const from = queue.shift() as string;
    if (expanded.has(from)) continue;
    expanded.add(from);
    for (const to of children.get(from) ?? []) {
      if (edges.length >= maxEdges) break outer;
      edges.push({ from, to });
      kept.add(to);
      queue.push(to);
    }
  }
  // Edges unreachable from a root (cycles among transitive entries) come after the BFS.
  if (edges.length < totalEdges && edges.length < maxEdges) {
    const seen = new Set(edges.map((e) => compositeKey(e.from, e.to)));
    for (const [from, list] of children) {
      for (const to of list) {
        if (edges.length >= maxEdges) break;
        if (seen.has(compositeKey(from, to))) continue;
        edges.push({ from, to });
        kept.add(from);
        kept.add(to);
      }
    }
  }
  return { edges, kept };
}

export function buildGraph(rows: RepositoryDependencyRow[], maxEdges: number): DependencyGraph {
  const graph = { nodes: new Map<string, GraphNode>(), children: new Map<string, string[]>() };
  const roots = byFile(rows).map(([file, deps]) => addFile(graph, file, deps));
  let totalEdges = 0;
  for (const list of graph.children.values()) totalEdges += list.length;
  const { edges, kept } = takeEdges(graph.children, roots, maxEdges, totalEdges);
  return {
    nodes: [...kept].map((id) => graph.nodes.get(id) as GraphNode),
    edges,
    totalEdges,
    truncated: edges.length < totalEdges,
  };
}

import { useMemo, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { closesCycle, type GraphTree, graphTree } from '../../api/graph-tree';
import { intParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { FilterBar } from '../../components/FilterBar';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { count } from '../../format';
import { useLocation } from '../../router';
import { useLoad } from '../../use-load';

/**
 * The dependency graph as an expandable tree from its roots (the dependency files): each entry
 * is a disclosure button naming the package and how many dependencies it has; a package with
 * two parents appears under both, a cycle is marked where it closes. Text all the way, so it is
 * its own text alternative. `maxEdges` (in the URL) caps what the route returns.
 */
type Graph = Ok<'/api/v1/repositories/{repositoryId}/dependency-graph'>;
type GraphNode = Graph['nodes'][number];

const EDGE_CAPS = ['500', '2000', '5000', '20000'] as const;
/** Children shown per entry before "Show more" (a file can hold thousands). */
const SHOWN = 100;

export function GraphTab({ repositoryId }: { repositoryId: string }) {
  const { search } = useLocation();
  const maxEdges = intParam(search, 'maxEdges', 2000, 100_000);
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}/dependency-graph', {
          params: { path: { repositoryId }, query: { maxEdges } },
        }),
      ),
    `${repositoryId}|${maxEdges}`,
  );
  return (
    <section aria-labelledby="section-title" class="section">
      <h2 id="section-title">Dependency graph</h2>
      <FilterBar
        label="Graph size"
        fields={[
          {
            kind: 'select',
            key: 'maxEdges',
            label: 'Most edges (default 2000)',
            options: EDGE_CAPS,
          },
        ]}
      />
      {result.state === 'loading' && <Loading label="Loading the graph" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && <GraphBody graph={result.data} />}
    </section>
  );
}

function GraphBody({ graph }: { graph: Graph }) {
  if (graph.nodes.length === 0) return <Empty>No dependencies recorded yet.</Empty>;
  const tree = useMemo(() => graphTree(graph), [graph]);
  return (
    <>
      <p>
        {count(graph.nodes.length)} nodes and {count(graph.edges.length)} of{' '}
        {count(graph.totalEdges)} edges
        {graph.truncated && (
          <strong class="warn"> · truncated at {count(graph.maxEdges)} edges</strong>
        )}
      </p>
      <ul class="tree" aria-label="Dependency tree">
        {tree.roots.map((id) => (
          <TreeItem key={id} tree={tree} nodeId={id} ancestors={[]} open />
        ))}
      </ul>
    </>
  );
}

function label(node: GraphNode): string {
  if (node.kind === 'file') return `${node.name} (${node.ecosystem} file)`;
  const version = node.version === null ? '' : ` ${node.version}`;
  return `${node.name}${version}`;
}

function TreeItem({
  tree,
  nodeId,
  ancestors,
  open = false,
}: {
  tree: GraphTree<GraphNode>;
  nodeId: string;
  ancestors: readonly string[];
  open?: boolean;
}) {
  const [expanded, setExpanded] = useState(open);
  const [shown, setShown] = useState(SHOWN);
  const node = tree.nodes.get(nodeId);
  if (!node) return null;
  const children = tree.children.get(nodeId) ?? [];
  const kind =
    node.kind === 'file'
      ? ''
      : node.scope === 'self'
        ? 'this project'
        : node.direct
          ? 'direct'
          : 'transitive';
  if (closesCycle(ancestors, nodeId)) {
    return (
      <li>
        {label(node)} <span class="muted">(cycle: already above)</span>
      </li>
    );
  }
  if (children.length === 0) {
    return (
      <li>
        {label(node)} {kind && <span class="tag">{kind}</span>}
      </li>
    );
  }
  const path = [...ancestors, nodeId];
  return (
    <li>
      <button
        type="button"
        class="disclosure"
        aria-expanded={expanded}
        onClick={() => setExpanded(!expanded)}
      >
        {label(node)}
      </button>{' '}
      <span class="muted">
        {count(children.length)} {children.length === 1 ? 'dependency' : 'dependencies'}
      </span>{' '}
      {kind && <span class="tag">{kind}</span>}
      {expanded && (
        <ul>
          {children.slice(0, shown).map((child) => (
            <TreeItem key={child} tree={tree} nodeId={child} ancestors={path} />
          ))}
          {children.length > shown && (
            <li>
              <button type="button" class="secondary" onClick={() => setShown(shown + SHOWN)}>
                Show {count(Math.min(SHOWN, children.length - shown))} more of{' '}
                {count(children.length - shown)} under {node.name}
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

import { ownPackageFields } from '../dependency-list';
import type { TomlTable } from '../shared/toml';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import {
  dedupe,
  groupScope,
  isTable,
  isValidName,
  makeDependency,
  normaliseName,
  SCOPE_PRIORITY,
  stringOf,
} from './common';
import { readLockPackages } from './lock-toml';

/**
 * uv.lock (version 1). The project itself (source `editable`/`virtual` = ".") and workspace
 * members (`[manifest] members`) are not dependencies but the project's own packages (scope
 * `self`, never direct); what they require is direct: their
 * `dependencies` are runtime, `optional-dependencies` optional and `dev-dependencies` groups
 * scoped by name (development otherwise). Scopes then flow down the `dependencies` edges, the
 * widest reach winning; a package no root reaches is reported as runtime. Without any root,
 * an entry is direct when nothing in the lock depends on it.
 */

interface Node {
  table: TomlTable;
  line: number | null;
  name: string;
  key: string;
  root: boolean;
  parents: string[];
  scope: DependencyScope | null;
  direct: boolean;
}

interface Edge {
  key: string;
  version: string | null;
}

function edgesOf(list: unknown): Edge[] {
  if (!Array.isArray(list)) return [];
  const out: Edge[] = [];
  for (const item of list) {
    const name = isTable(item) ? stringOf(item.name) : null;
    if (name)
      out.push({ key: normaliseName(name), version: stringOf((item as TomlTable).version) });
  }
  return out;
}

function groupedEdges(table: unknown): Array<[string, Edge[]]> {
  if (!isTable(table)) return [];
  return Object.entries(table).map(([group, list]) => [group, edgesOf(list)]);
}

function sourceOf(table: TomlTable): DependencySource | undefined {
  const source = table.source;
  if (!isTable(source)) return undefined;
  const git = stringOf(source.git);
  if (git) {
    // "https://github.com/o/r?rev=v1#<commit>": the fragment is the locked commit.
    const hash = git.indexOf('#');
    const query = git.indexOf('?');
    const end = Math.min(...[hash, query, git.length].filter((i) => i !== -1));
    const commit = hash === -1 ? null : git.slice(hash + 1);
    const named = query === -1 ? null : /(?:rev|tag|branch)=([^&#]+)/.exec(git.slice(query));
    return { kind: 'git', url: git.slice(0, end), ref: commit ?? named?.[1] ?? null };
  }
  const url = stringOf(source.url);
  if (url) return { kind: 'url', url };
  const path =
    stringOf(source.path) ??
    stringOf(source.directory) ??
    stringOf(source.editable) ??
    stringOf(source.virtual);
  if (path !== null) return { kind: 'path', path };
  return undefined;
}

function isProjectRoot(table: TomlTable, members: Set<string>, key: string): boolean {
  if (members.has(key)) return true;
  const source = table.source;
  if (!isTable(source)) return false;
  const local = stringOf(source.editable) ?? stringOf(source.virtual);
  return local === '.' || local === './';
}

/** The project or a workspace member: reported as the project's own package (scope `self`). */
function selfPackage(node: Node, version: string | null): ExtractedDependency {
  const own = ownPackageFields(node.name, version, node.line);
  return makeDependency({
    ...own,
    parents: node.parents,
    source: sourceOf(node.table) ?? own.source,
  });
}

export function extractUvLock(input: ExtractInput): ExtractionResult {
  const lock = readLockPackages(input.text, 'uv.lock');
  const errors: ExtractionError[] = lock.error ? [lock.error] : [];
  const manifest = isTable(lock.doc.manifest) ? lock.doc.manifest : null;
  const members = new Set(
    (Array.isArray(manifest?.members) ? manifest.members : [])
      .filter((m): m is string => typeof m === 'string')
      .map(normaliseName),
  );

  const nodes: Node[] = [];
  const byKey = new Map<string, Node[]>();
  for (const { table, line } of lock.packages) {
    const name = stringOf(table.name);
    if (!name || !isValidName(name)) {
      errors.push({ line, message: 'package entry without a valid name' });
      continue;
    }
    const key = normaliseName(name);
    const node: Node = {
      table,
      line,
      name,
      key,
      root: isProjectRoot(table, members, key),
      parents: [],
      scope: null,
      direct: false,
    };
    nodes.push(node);
    const list = byKey.get(key) ?? [];
    list.push(node);
    byKey.set(key, list);
  }

  const targets = (edge: Edge): Node[] => {
    const candidates = byKey.get(edge.key) ?? [];
    if (edge.version === null) return candidates;
    return candidates.filter((n) => stringOf(n.table.version) === edge.version);
  };
  // Edges a package passes on: its own requirements and those of its extras uv kept.
  const downstream = (node: Node): Edge[] => [
    ...edgesOf(node.table.dependencies),
    ...groupedEdges(node.table['optional-dependencies']).flatMap(([, e]) => e),
  ];

  for (const node of nodes) {
    const edges = [
      ...downstream(node),
      ...groupedEdges(node.table['dev-dependencies']).flatMap(([, e]) => e),
    ];
    for (const edge of edges) {
      for (const target of targets(edge)) {
        if (node.root) target.direct = true;
        else if (!target.parents.includes(node.key)) target.parents.push(node.key);
      }
    }
  }

  // Scope: for each scope from widest to narrowest, mark what the roots reach through it.
  const seeds = new Map<DependencyScope, Edge[]>();
  const addSeeds = (scope: DependencyScope, edges: Edge[]) => {
    seeds.set(scope, [...(seeds.get(scope) ?? []), ...edges]);
  };
  for (const root of nodes.filter((n) => n.root)) {
    addSeeds('runtime', edgesOf(root.table.dependencies));
    for (const [, edges] of groupedEdges(root.table['optional-dependencies']))
      addSeeds('optional', edges);
    for (const [group, edges] of groupedEdges(root.table['dev-dependencies'])) {
      addSeeds(groupScope(group, 'development'), edges);
    }
  }
  for (const scope of SCOPE_PRIORITY) {
    const queue = (seeds.get(scope) ?? []).flatMap(targets);
    while (queue.length > 0) {
      const node = queue.pop()!;
      if (node.scope !== null || node.root) continue;
      node.scope = scope;
      for (const edge of downstream(node)) queue.push(...targets(edge));
    }
  }

  const hasRoot = nodes.some((n) => n.root);
  const deps: ExtractedDependency[] = [];
  for (const node of nodes) {
    const version = stringOf(node.table.version);
    if (node.root) {
      deps.push(selfPackage(node, version));
      continue;
    }
    deps.push(
      makeDependency({
        name: node.name,
        version,
        resolution: version === null ? 'unpinned' : 'resolved',
        scope: node.scope ?? 'runtime',
        direct: hasRoot ? node.direct : node.parents.length === 0,
        line: node.line,
        parents: node.parents,
        source: sourceOf(node.table),
      }),
    );
  }
  return { dependencies: dedupe(deps), errors };
}

export const uvLockExtractor: Extractor = {
  name: 'pypi/uv-lock',
  version: 2,
  kind: 'lockfile',
  matches: (path) => baseOf(path) === 'uv.lock',
  extract: extractUvLock,
  describe: (input) => {
    const version = /^version\s*=\s*(\d+)/m.exec(input.text.slice(0, 2000));
    return version ? `uv.lock (version ${version[1]})` : 'uv.lock';
  },
};

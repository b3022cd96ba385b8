import { scanJsonKeys, sequentialKeyLines } from '../shared/json-lines';
import type {
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
} from '../types';
import {
  gitSource,
  isGitSpec,
  isRecord,
  makeDependency,
  readManifest,
  sourceFromResolved,
  splitDescriptor,
} from './common';
import { CHAIN, depNames, flagScope, type Json, linesOf } from './package-lock-shared';

/**
 * package-lock.json v1 (npm 5–6): one dependency per entry of the nested `dependencies` tree,
 * walked in file order; a requirement is met by the nearest enclosing `dependencies` that has it.
 */

/** Deeper v1 nesting than this is not a real install tree; stop walking rather than exhaust. */
const MAX_V1_DEPTH = 100;

interface V1Node {
  key: string;
  depth: number;
  entry: Json;
  /** Enclosing node (-1 = the top-level `dependencies`). */
  parent: number;
  /** Names in this node's own nested `dependencies`, to node index. */
  children: Map<string, number> | null;
}

/**
 * Lines of v1 entries. `nodes` are in pre-order, which is file order, so the indexOf fast path
 * applies (`"name": {` never matches a `requires` entry, whose values are strings); otherwise one
 * structural scan keyed by the chain of names.
 */
function v1Lines(text: string, nodes: readonly V1Node[]): (index: number) => number | null {
  const from = text.indexOf('"dependencies":');
  const keys = nodes.map((node) => node.key);
  const fast = from === -1 ? null : sequentialKeyLines(text, keys, from, ': {');
  if (fast) return (index) => fast[index] ?? null;
  const lines = linesOf(scanJsonKeys(text, selectV1, { maxDepth: 2 * MAX_V1_DEPTH + 1 }).records);
  const chains: string[] = [];
  nodes.forEach((node, index) => {
    const prefix = node.parent === -1 ? '' : `${chains[node.parent]}${CHAIN}`;
    chains[index] = prefix + node.key;
  });
  return (index) => lines.get(chains[index] as string) ?? null;
}

interface V1Tree {
  nodes: V1Node[];
  topLevel: Map<string, number>;
  problems: { node: number; key: string; message: string }[];
}

export function fromV1(
  dependencies: Json,
  text: string,
  input: ExtractInput,
  errors: ExtractionError[],
): ExtractedDependency[] {
  const tree = walkV1(dependencies);
  const lineAt = v1Lines(text, tree.nodes);
  for (const problem of tree.problems) {
    // A bad entry has no line of its own here; its enclosing entry's line points at the spot.
    errors.push({
      line: problem.node === -1 ? null : lineAt(problem.node),
      message: problem.message,
    });
  }
  const parents = v1Parents(tree);
  const manifest = readManifest(input);
  const declared = manifest ? new Set(depNames(manifest, true)) : null;
  const out: ExtractedDependency[] = [];
  tree.nodes.forEach((node, index) => {
    const { entry, key } = node;
    const line = lineAt(index);
    if (typeof entry.version !== 'string' || entry.version.trim() === '') {
      errors.push({ line, message: `${key} has no version; skipped` });
      return;
    }
    const { name, version, source } = v1Version(key, entry.version.trim(), entry.resolved);
    const nodeParents = parents[index];
    const direct = node.depth === 0 && (declared ? declared.has(key) : nodeParents === undefined);
    out.push(
      makeDependency({
        name,
        version,
        resolution: version === null ? 'unpinned' : 'resolved',
        scope: flagScope(entry),
        direct,
        line,
        parents: nodeParents,
        source,
      }),
    );
  });
  return out;
}

/** Pre-order walk of nested v1 `dependencies` with an explicit stack (file order, no recursion). */
function walkV1(dependencies: Json): V1Tree {
  const tree: V1Tree = { nodes: [], topLevel: new Map(), problems: [] };
  const { nodes, problems } = tree;
  const stack: { map: Json; keys: string[]; index: number; parent: number; depth: number }[] = [
    { map: dependencies, keys: Object.keys(dependencies), index: 0, parent: -1, depth: 0 },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.index >= frame.keys.length) {
      stack.pop();
      continue;
    }
    const key = frame.keys[frame.index++] as string;
    const entry = frame.map[key];
    if (!isRecord(entry)) {
      problems.push({
        node: frame.parent,
        key,
        message: `dependencies["${key}"] is not an object; skipped`,
      });
      continue;
    }
    const index = nodes.length;
    nodes.push({ key, depth: frame.depth, entry, parent: frame.parent, children: null });
    const scope = frame.parent === -1 ? tree.topLevel : (nodes[frame.parent] as V1Node).children;
    scope?.set(key, index);
    if (!isRecord(entry.dependencies)) continue;
    if (frame.depth + 1 >= MAX_V1_DEPTH) {
      const message = `dependencies nested deeper than ${MAX_V1_DEPTH} levels under ${key}; not walked`;
      problems.push({ node: index, key: '', message });
      continue;
    }
    (nodes[index] as V1Node).children = new Map();
    const nested = entry.dependencies;
    stack.push({
      map: nested,
      keys: Object.keys(nested),
      index: 0,
      parent: index,
      depth: frame.depth + 1,
    });
  }
  return tree;
}

/** A requirement is met by the nearest enclosing `dependencies` that has it (Node resolution). */
function v1Parents({ nodes, topLevel }: V1Tree): (Set<string> | undefined)[] {
  const parents: (Set<string> | undefined)[] = new Array(nodes.length);
  nodes.forEach((node, index) => {
    if (!isRecord(node.entry.requires)) return;
    for (const dep of Object.keys(node.entry.requires)) {
      let scope = index;
      let target: number | undefined;
      while (target === undefined) {
        const map = scope === -1 ? topLevel : (nodes[scope] as V1Node).children;
        target = map?.get(dep);
        if (scope === -1) break;
        scope = (nodes[scope] as V1Node).parent;
      }
      if (target === undefined || target === index) continue;
      const set = parents[target];
      if (set) set.add(node.key);
      else parents[target] = new Set([node.key]);
    }
  });
  return parents;
}

/** What a v1 `version` field says: an exact version, an alias, or a git/file/URL source. */
function v1Version(
  key: string,
  raw: string,
  resolved: unknown,
): { name: string; version: string | null; source: DependencySource } {
  if (raw.startsWith('npm:')) {
    // Aliases record the real package as `npm:<name>@<version>`.
    const split = splitDescriptor(raw.slice('npm:'.length));
    const source = sourceFromResolved(resolved);
    return split
      ? { name: split.name, version: split.range, source }
      : { name: key, version: raw, source };
  }
  if (isGitSpec(raw)) {
    const source = gitSource(raw);
    return { name: key, version: source.kind === 'git' ? source.ref : null, source };
  }
  if (raw.startsWith('file:')) {
    return { name: key, version: null, source: { kind: 'path', path: raw.slice('file:'.length) } };
  }
  if (/^https?:\/\//.test(raw))
    return { name: key, version: null, source: { kind: 'url', url: raw } };
  return { name: key, version: raw, source: sourceFromResolved(resolved) };
}

/** `dependencies > a > dependencies > b` becomes the chain `a\0b`. */
function selectV1(path: readonly string[], key: string): string | null {
  if (path.length % 2 === 0) return null;
  let chain = '';
  for (let i = 0; i < path.length; i += 2) {
    if (path[i] !== 'dependencies') return null;
    const name = path[i + 1];
    if (name !== undefined) chain += name + CHAIN;
  }
  return chain + key;
}

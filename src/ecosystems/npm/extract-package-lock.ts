import { scanJsonKeys, sequentialKeyLines } from '../shared/json-lines';
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
  errorMessage,
  fileError,
  gitSource,
  isGitSpec,
  isRecord,
  makeDependency,
  readManifest,
  setOwn,
  sourceFromResolved,
  splitDescriptor,
} from './common';
import { readLockPackages } from './package-lock-reader';

/**
 * package-lock.json v1, v2, v3 and npm-shrinkwrap.json (same format).
 *
 * The root `""` (v1: the top-level `name`/`version`) is the project itself: reported first, with
 * scope `self` (docs/extraction.md "The project's own package").
 * v2/v3: one dependency per `packages` key, except the root `""` and workspace/`file:` folder keys
 * (keys without a `node_modules/` segment: they are the project's own packages, reported through
 * the `link: true` entry that points at them, as a path source). So the extracted set is exactly
 * the lockfile's installed `node_modules/...` entries; the same name@version installed at two paths
 * is two entries on purpose (different parents and lines).
 * v1: one dependency per entry of the nested `dependencies` tree.
 */

const NODE_MODULES = 'node_modules/';
const CHAIN = '\u0000';
/** Deeper v1 nesting than this is not a real install tree; stop walking rather than exhaust. */
const MAX_V1_DEPTH = 100;

type Json = Record<string, unknown>;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function flagScope(entry: Json): DependencyScope {
  if (entry.dev === true || entry.devOptional === true) return 'development';
  if (entry.optional === true) return 'optional';
  return 'runtime';
}

/** Offset where the installed package name starts in a `packages` key, or -1 for a folder key. */
function nameStart(key: string): number {
  const nested = key.lastIndexOf(`/${NODE_MODULES}`);
  if (nested !== -1) return nested + 1 + NODE_MODULES.length;
  return key.startsWith(NODE_MODULES) ? NODE_MODULES.length : -1;
}

/** The directory whose node_modules is searched next (Node's resolution walks upwards). */
function parentLocation(key: string): string {
  const nested = key.lastIndexOf(`/${NODE_MODULES}`);
  return nested === -1 ? '' : key.slice(0, nested);
}

function isVersion(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

const RUNTIME_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;
const PROJECT_FIELDS = [...RUNTIME_FIELDS, 'devDependencies'] as const;

/** Names an entry depends on; a project (root/workspace folder) also counts devDependencies. */
function depNames(entry: Json, project: boolean): string[] {
  let names: string[] = [];
  for (const field of project ? PROJECT_FIELDS : RUNTIME_FIELDS) {
    const map = entry[field];
    if (isRecord(map))
      names = names.length === 0 ? Object.keys(map) : names.concat(Object.keys(map));
  }
  return names;
}

interface Installed {
  key: string;
  name: string;
  line: number | null;
  /** Location whose node_modules holds this entry ('' = the root). */
  location: string;
  deps: string[];
  scope: DependencyScope;
  /** Exact version, or the folder path of a `link: true` entry. */
  version: string;
  link: boolean;
  resolved: unknown;
}

/**
 * The installed packages of a v2/v3 `packages` object with a resolution index keyed by strings
 * that already exist (the parsed keys), so lookups reuse cached hashes instead of building
 * `<location>/node_modules/<name>` candidates: `children` maps a location (a package key, a
 * folder key or '' for the root) to the names installed in its node_modules; `container` maps a
 * key to the location its node_modules sits in.
 */
interface PackagesIndex {
  folders: Map<string, Json>;
  installed: Installed[];
  children: Map<string, Map<string, number>>;
  container: Map<string, string>;
}

/** Who depends on each installed package, and which ones the project itself asks for. */
interface PackageEdges {
  parents: (string[] | undefined)[];
  direct: boolean[];
}

function fromPackages(
  packages: Json,
  lineAt: (index: number) => number | null,
  input: ExtractInput,
  errors: ExtractionError[],
): ExtractedDependency[] {
  const index = indexPackages(packages, lineAt, errors);
  const lockRoot = isRecord(packages['']) ? packages[''] : null;
  const root = lockRoot ?? readManifest(input);
  const edges = packageEdges(index, root);
  const installed = index.installed.map((item, i) =>
    item.link
      ? linkedDependency(item, edges.parents[i], index.folders)
      : installedDependency(item, i, edges, Boolean(root)),
  );
  const self = lockRoot ? selfPackage(lockRoot, lineAt(Object.keys(packages).indexOf(''))) : null;
  return self ? [self, ...installed] : installed;
}

/**
 * The project itself (the `""` entry, or the v1 top level): reported as its own package (scope
 * `self`) when it has a name; a lock of an unnamed project has nothing to report.
 */
function selfPackage(root: Json, line: number | null): ExtractedDependency | null {
  if (typeof root.name !== 'string' || root.name.trim() === '') return null;
  const version = isVersion(root.version) ? root.version : null;
  return makeDependency({
    name: root.name.trim(),
    version,
    resolution: version === null ? 'unpinned' : 'resolved',
    scope: 'self',
    direct: false,
    line,
    source: { kind: 'path', path: '.' },
  });
}

/** Line of the top-level `"name"` key of a v1 lock (the lock's first keys, before any tree). */
function topLevelNameLine(text: string): number | null {
  const match = /^ {2}"name":/m.exec(text);
  if (!match) return null;
  let line = 1;
  for (
    let at = text.indexOf('\n');
    at !== -1 && at < match.index;
    at = text.indexOf('\n', at + 1)
  ) {
    line++;
  }
  return line;
}

function indexPackages(
  packages: Json,
  lineAt: (index: number) => number | null,
  errors: ExtractionError[],
): PackagesIndex {
  const index: PackagesIndex = {
    folders: new Map(),
    installed: [],
    children: new Map(),
    container: new Map(),
  };
  const keys = Object.keys(packages);
  for (let position = 0; position < keys.length; position++) {
    const key = keys[position] as string;
    if (key === '') continue;
    const entry = packages[key];
    const line = lineAt(position);
    if (!isRecord(entry)) {
      errors.push({ line, message: `packages["${key}"] is not an object; skipped` });
      continue;
    }
    const start = nameStart(key);
    if (start === -1) {
      index.folders.set(key, entry);
      index.container.set(key, '');
      continue;
    }
    const link = entry.link === true;
    const version = link ? entry.resolved : entry.version;
    if (!isVersion(version)) {
      const what = link ? 'link entry has no "resolved" target' : 'no version';
      errors.push({ line, message: `${key}: ${what}; skipped` });
      continue;
    }
    const location =
      start === NODE_MODULES.length ? '' : key.slice(0, start - NODE_MODULES.length - 1);
    index.container.set(key, location);
    const installedName = key.slice(start);
    const names = index.children.get(location);
    if (names) names.set(installedName, index.installed.length);
    else index.children.set(location, new Map([[installedName, index.installed.length]]));
    const name = typeof entry.name === 'string' && entry.name !== '' ? entry.name : installedName;
    index.installed.push({
      key,
      name,
      line,
      location,
      deps: depNames(entry, false),
      scope: flagScope(entry),
      version,
      link,
      resolved: entry.resolved,
    });
  }
  return index;
}

/** Resolves every dependency name the way Node does: up the node_modules chain. */
function packageEdges(index: PackagesIndex, root: Json | null | undefined): PackageEdges {
  const { children, container, folders, installed } = index;
  const edges: PackageEdges = {
    parents: new Array(installed.length),
    direct: new Array(installed.length).fill(false),
  };
  const addEdges = (from: string, fromName: string | null, deps: string[], project: boolean) => {
    for (const dep of deps) {
      let location: string | undefined = from;
      let target: number | undefined;
      while (location !== undefined) {
        target = children.get(location)?.get(dep);
        if (target !== undefined || location === '') break;
        location = container.get(location) ?? parentLocation(location);
      }
      if (target === undefined) continue;
      if (project) edges.direct[target] = true;
      if (fromName === null) continue;
      const list = edges.parents[target];
      if (list) list.push(fromName);
      else edges.parents[target] = [fromName];
    }
  };
  if (root) addEdges('', null, depNames(root, true), true);
  for (const [key, folder] of folders) {
    const folderName = typeof folder.name === 'string' ? folder.name : baseName(key);
    addEdges(key, folderName, depNames(folder, true), true);
  }
  for (const item of installed) addEdges(item.key, item.name, item.deps, false);
  return edges;
}

/** A workspace/`file:` package: its version is the one its own folder entry records. */
function linkedDependency(
  item: Installed,
  parents: string[] | undefined,
  folders: Map<string, Json>,
): ExtractedDependency {
  const target = folders.get(item.version);
  const version = target && isVersion(target.version) ? target.version : null;
  return makeDependency({
    name: item.name,
    version,
    resolution: version === null ? 'unpinned' : 'resolved',
    scope: item.scope,
    // Linked packages are the project's own workspaces/folders: first-party, hence direct.
    direct: true,
    line: item.line,
    parents,
    source: { kind: 'path', path: item.version },
  });
}

function installedDependency(
  item: Installed,
  index: number,
  edges: PackageEdges,
  hasRoot: boolean,
): ExtractedDependency {
  const parents = edges.parents[index];
  // Without a root entry or manifest, top-level packages nothing depends on are the direct ones.
  const orphan = !hasRoot && item.location === '' && parents === undefined;
  return makeDependency({
    name: item.name,
    version: item.version,
    resolution: 'resolved',
    scope: item.scope,
    direct: edges.direct[index] === true || orphan,
    line: item.line,
    parents,
    source: sourceFromResolved(item.resolved),
  });
}

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

function fromV1(
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

const selectPackages = (path: readonly string[], key: string): string | null =>
  path.length === 1 && path[0] === 'packages' ? key : null;

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

/**
 * Line of each `packages` key by its index in `Object.keys(packages)`: the indexOf fast path,
 * else one structural scan.
 */
function packagesLines(text: string, packages: Json): (index: number) => number | null {
  const keys = Object.keys(packages);
  const from = text.indexOf('"packages":');
  const fast = from === -1 ? null : sequentialKeyLines(text, keys, from, ':');
  if (fast) return (index) => fast[index] ?? null;
  // Only the `packages` object is needed; the scan stops once it closes (v2 repeats the tree).
  const scan = scanJsonKeys(text, selectPackages, { maxDepth: 1, stopAfterRootKey: 'packages' });
  const lines = linesOf(scan.records);
  return (index) => lines.get(keys[index] as string) ?? null;
}

function linesOf(records: readonly { id: string; line: number }[]): Map<string, number> {
  const map = new Map<string, number>();
  // The first occurrence wins, as the first key is where a reader would look.
  for (const record of records) if (!map.has(record.id)) map.set(record.id, record.line);
  return map;
}

/** `... at position 123` in V8's JSON errors → the line, for a friendlier whole-file message. */
function describeJsonError(text: string, error: unknown): string {
  const message = errorMessage(error);
  const match = /position (\d+)/.exec(message);
  if (!match) return message;
  const position = Math.min(Number(match[1]), text.length);
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < position; at = text.indexOf('\n', at + 1)) {
    line++;
  }
  return `${message} (line ${line})`;
}

/**
 * The file is not valid JSON (truncated, hand-edited). Salvage every `packages` (or v1 top-level
 * `dependencies`) entry whose own text still parses, and report the rest by line.
 */
function salvage(input: ExtractInput, error: unknown): ExtractionResult {
  const { text } = input;
  const errors: ExtractionError[] = [fileError(`invalid JSON: ${describeJsonError(text, error)}`)];
  const scan = scanJsonKeys(
    text,
    (path, key) =>
      path.length === 1 && (path[0] === 'packages' || path[0] === 'dependencies')
        ? `${path[0]}${CHAIN}${key}`
        : null,
    { maxDepth: 1 },
  );
  const packagesRecords = scan.records.filter((r) => r.id.startsWith('packages'));
  const useV1 = packagesRecords.length === 0;
  const records = useV1 ? scan.records : packagesRecords;
  const section: Json = {};
  for (const record of records) {
    if (record.start === -1 || record.end === -1) {
      errors.push({ line: record.line, message: `${record.key}: entry is cut off; skipped` });
      continue;
    }
    try {
      setOwn(section, record.key, JSON.parse(text.slice(record.start, record.end)));
    } catch (entryError) {
      errors.push({
        line: record.line,
        message: `${record.key}: ${errorMessage(entryError)}; skipped`,
      });
    }
  }
  if (records.length === 0) return { dependencies: [], errors };
  if (!useV1) {
    const lines = linesOf(records.map((r) => ({ id: r.key, line: r.line })));
    const keys = Object.keys(section);
    const lineAt = (index: number) => lines.get(keys[index] as string) ?? null;
    return { dependencies: fromPackages(section, lineAt, input, errors), errors };
  }
  return { dependencies: fromV1(section, text, input, errors), errors };
}

/**
 * From this many characters on, a lock is read entry by entry (./package-lock-reader.ts): the
 * same result with a fraction of the memory. Smaller ones are parsed whole (faster).
 */
export const INCREMENTAL_FROM_CHARS = 4 * 1024 * 1024;

/** `incrementalFrom` is for tests, which check both paths give the same answer on every lock. */
export function extractPackageLock(
  input: ExtractInput,
  incrementalFrom = INCREMENTAL_FROM_CHARS,
): ExtractionResult {
  const read = input.text.length >= incrementalFrom ? readLockPackages(input.text) : null;
  if (!read) return extract(input);
  const errors: ExtractionError[] = [];
  if (typeof read.lockfileVersion !== 'number') errors.push(VERSION_MISSING());
  const lines = packagesLines(input.text, read.packages);
  return { dependencies: fromPackages(read.packages, lines, input, errors), errors };
}

const VERSION_MISSING = () =>
  fileError('lockfileVersion is missing or not a number; reading the file as far as it goes');

function extract(input: ExtractInput): ExtractionResult {
  let data: unknown;
  try {
    data = JSON.parse(input.text);
  } catch (error) {
    return salvage(input, error);
  }
  if (!isRecord(data)) {
    return {
      dependencies: [],
      errors: [fileError('not an npm lockfile: the top level is not a JSON object')],
    };
  }
  const errors: ExtractionError[] = [];
  if (typeof data.lockfileVersion !== 'number') errors.push(VERSION_MISSING());
  if (isRecord(data.packages)) {
    const lines = packagesLines(input.text, data.packages);
    return { dependencies: fromPackages(data.packages, lines, input, errors), errors };
  }
  if (isRecord(data.dependencies)) {
    const installed = fromV1(data.dependencies, input.text, input, errors);
    const self = selfPackage(data, topLevelNameLine(input.text));
    return { dependencies: self ? [self, ...installed] : installed, errors };
  }
  return { dependencies: [], errors };
}

export const packageLockExtractor: Extractor = {
  name: 'npm/package-lock',
  version: 2,
  kind: 'lockfile',
  matches: (path) => {
    const base = baseName(path);
    return base === 'package-lock.json' || base === 'npm-shrinkwrap.json';
  },
  extract: (input) => extractPackageLock(input),
  describe: (input) => {
    const match = /"lockfileVersion"\s*:\s*(\d+)/.exec(input.text.slice(0, 4096));
    const base = baseName(input.path);
    return match ? `${base} v${match[1]}` : base;
  },
};

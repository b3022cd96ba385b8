import { ownPackageFields } from '../dependency-list';
import { scanJsonKeys, sequentialKeyLines } from '../shared/json-lines';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
  StreamedInput,
} from '../types';
import {
  errorMessage,
  fileError,
  isRecord,
  makeDependency,
  readManifest,
  setOwn,
  sourceFromResolved,
} from './common';
import { type LockPackages, readLockPackages, streamLockPackages } from './package-lock-reader';
import { CHAIN, depNames, flagScope, type Json, linesOf } from './package-lock-shared';
import { fromV1 } from './package-lock-v1';

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
  input: Pick<ExtractInput, 'path' | 'readFile'>,
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
  return makeDependency(ownPackageFields(root.name.trim(), version, line));
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
    const folderName = typeof folder.name === 'string' ? folder.name : baseOf(key);
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

const selectPackages = (path: readonly string[], key: string): string | null =>
  path.length === 1 && path[0] === 'packages' ? key : null;

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
  return read ? fromRead(read, input) : extract(input);
}

/**
 * A lock file read from disk in pieces (docs/extraction.md, "Large lockfiles"), never held
 * whole; null when only the whole-file path gives the right answer (the caller then reads the
 * file whole and calls `extract`).
 */
export function extractPackageLockStream(input: StreamedInput): ExtractionResult | null {
  const read = streamLockPackages(input.text);
  return read ? fromRead(read, input) : null;
}

function fromRead(read: LockPackages, input: Pick<ExtractInput, 'path' | 'readFile'>) {
  const errors: ExtractionError[] = [];
  if (typeof read.lockfileVersion !== 'number') errors.push(VERSION_MISSING());
  const lineAt = (index: number) => read.lines[index] ?? null;
  return { dependencies: fromPackages(read.packages, lineAt, input, errors), errors };
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
    const base = baseOf(path);
    return base === 'package-lock.json' || base === 'npm-shrinkwrap.json';
  },
  extract: (input) => extractPackageLock(input),
  stream: { fromBytes: INCREMENTAL_FROM_CHARS, extract: extractPackageLockStream },
  describe: (input) => {
    const match = /"lockfileVersion"\s*:\s*(\d+)/.exec(input.text.slice(0, 4096));
    const base = baseOf(input.path);
    return match ? `${base} v${match[1]}` : base;
  },
};

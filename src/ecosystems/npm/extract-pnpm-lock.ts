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
  isRecord,
  manifestSelf,
  REGISTRY,
  readManifest,
  sourceFromResolved,
  splitDescriptor,
  stringEntries,
} from './common';
import { LockGraph } from './graph';
import { parseNpmVersion } from './versioning';
import { NESTED_KEY, readYamlEntries } from './yaml-entries';

/**
 * pnpm-lock.yaml, lockfile versions 5.x (`/name/1.0.0_peer@1.0.0` keys), 6 (`/name@1.0.0(peer@1)`)
 * and 9 (`name@1.0.0` in `packages`, peer variants and edges in `snapshots`).
 *
 * One dependency per `packages` key; peer variants of one name@version (5/6) merge. Workspace
 * projects are `importers`, not packages: what they declare is direct, and their `link:`
 * dependencies (sibling workspaces) are not reported as dependencies: each project is reported
 * once as the project's own package (scope `self`) when its package.json is in the tree. Scope: 5/6 `dev`/`optional` flags where
 * present, else reachability from the importers' dependencies / optionalDependencies /
 * devDependencies.
 */

type Dialect = 5 | 6 | 9;
type Json = Record<string, unknown>;

/** `1.0.0(react@18.0.0)(...)` → `1.0.0` (6 and 9); `1.0.0_react@18.0.0` → `1.0.0` (5). */
function stripPeers(text: string, dialect: Dialect): string {
  const paren = text.indexOf('(');
  let out = paren === -1 ? text : text.slice(0, paren);
  if (dialect === 5) {
    // Only the version part can carry `_peer`; scoped names never contain `_` before the version.
    const underscore = out.indexOf('_', out.lastIndexOf('/') + 1);
    if (underscore !== -1) out = out.slice(0, underscore);
  }
  return out;
}

/** Name and version from a `packages` key; null for keys that only the entry's fields explain. */
function parseKey(key: string, dialect: Dialect): { name: string; version: string } | null {
  const bare = stripPeers(key.startsWith('/') ? key.slice(1) : key, dialect);
  if (dialect !== 5) {
    const split = splitDescriptor(bare);
    return split && split.range !== '' ? { name: split.name, version: split.range } : null;
  }
  const parts = bare.split('/');
  const scoped = bare.startsWith('@');
  const name = scoped ? `${parts[0]}/${parts[1]}` : parts[0];
  const version = parts[scoped ? 2 : 1];
  if (!name || !version || parts.length !== (scoped ? 3 : 2)) return null;
  return { name, version };
}

function resolutionSource(resolution: unknown, keyVersion: string | null): DependencySource {
  if (keyVersion?.startsWith('file:') || keyVersion?.startsWith('link:')) {
    return { kind: 'path', path: keyVersion.slice(5) };
  }
  if (!isRecord(resolution)) return REGISTRY;
  if (resolution.type === 'git' && typeof resolution.repo === 'string') {
    const ref = typeof resolution.commit === 'string' ? resolution.commit : null;
    return { kind: 'git', url: resolution.repo, ref };
  }
  if (resolution.type === 'directory' && typeof resolution.directory === 'string') {
    return { kind: 'path', path: resolution.directory };
  }
  if (typeof resolution.tarball === 'string') {
    const tarball = resolution.tarball;
    if (tarball.startsWith('file:')) return { kind: 'path', path: tarball.slice('file:'.length) };
    return sourceFromResolved(tarball);
  }
  return REGISTRY;
}

function dialectOf(lockfileVersion: unknown): Dialect | null {
  const number = Number.parseFloat(String(lockfileVersion));
  if (!Number.isFinite(number)) return null;
  if (number >= 9) return 9;
  if (number >= 6) return 6;
  return 5;
}

/** The big sections, read entry by entry. */
const SECTIONS: ReadonlySet<string> = new Set(['importers', 'packages', 'snapshots']);

function flagScope(entry: Json): DependencyScope | undefined {
  if (entry.dev === true) return 'development';
  if (entry.optional === true) return 'optional';
  if (entry.dev === false) return 'runtime';
  return undefined;
}

/** One pnpm lockfile being read: its dialect, the graph built so far and where keys are. */
interface PnpmRead {
  dialect: Dialect;
  graph: LockGraph;
  byKey: Map<string, number>;
  line: (section: string, key: string) => number | null;
  errors: ExtractionError[];
}

function extract(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  const {
    data,
    lines: allLines,
    mapping,
  } = readYamlEntries(input.text, SECTIONS, errors, 'pnpm lockfile');
  if (!mapping) return { dependencies: [], errors };
  const dialect = dialectOf(data.lockfileVersion);
  if (dialect === null) {
    errors.push(fileError('lockfileVersion is missing or not a number'));
    return { dependencies: [], errors };
  }
  const read: PnpmRead = {
    dialect,
    graph: new LockGraph(),
    byKey: new Map(),
    line: (section, key) => allLines.get(`${section}${NESTED_KEY}${key}`) ?? null,
    errors,
  };
  const entries = readPackages(read, isRecord(data.packages) ? data.packages : {});
  if (dialect === 9) {
    readSnapshots(read, isRecord(data.snapshots) ? data.snapshots : {});
  } else {
    for (const [index, entry] of entries.entries()) if (entry) addEdges(read, index, entry);
  }
  const importers = isRecord(data.importers) ? data.importers : { '.': data };
  addImporters(read, importers);
  const own = ownPackages(input, read, Object.keys(importers), isRecord(data.importers));
  return { dependencies: [...own, ...read.graph.toDependencies()], errors };
}

/**
 * The workspace projects themselves (scope `self`): each importer (`.` the root, `packages/a` a
 * member) named by its package.json when the scanned tree has it; the lockfile records no names.
 */
function ownPackages(
  input: ExtractInput,
  read: PnpmRead,
  importers: string[],
  listed: boolean,
): ExtractedDependency[] {
  const out: ExtractedDependency[] = [];
  for (const key of importers) {
    const path = key === '' ? '.' : key;
    const line = listed ? read.line('importers', key) : null;
    const own = manifestSelf(readManifest(input, path), path, line);
    if (own) out.push(own);
  }
  return out;
}

/** Every `packages` entry as a graph node; the entries by node index. */
function readPackages(read: PnpmRead, packages: Json): Json[] {
  const entries: Json[] = [];
  for (const key of Object.keys(packages)) {
    const entry = packages[key];
    const at = read.line('packages', key);
    if (!isRecord(entry)) {
      read.errors.push({ line: at, message: `packages["${key}"] is not a mapping; skipped` });
      continue;
    }
    const fromKey = parseKey(key, read.dialect);
    const name = typeof entry.name === 'string' ? entry.name : fromKey?.name;
    if (!name) {
      read.errors.push({ line: at, message: `cannot tell the package name of ${key}; skipped` });
      continue;
    }
    const source = resolutionSource(entry.resolution, fromKey?.version ?? null);
    let version: string | null = null;
    if (typeof entry.version === 'string') version = entry.version;
    else if (fromKey && parseNpmVersion(fromKey.version)) version = fromKey.version;
    else if (source.kind === 'git') version = source.ref;
    const index = read.graph.add({
      name,
      version,
      line: at,
      source,
      scope: read.dialect === 9 ? undefined : flagScope(entry),
      optional: entry.optional === true,
    });
    read.byKey.set(key, index);
    entries[index] = entry;
  }
  return entries;
}

/** A reference (`1.0.0(peer@1)`, an alias `real@1.0.0`, `/real/1.0.0`, `link:../x`) → package. */
function resolveRef(read: PnpmRead, name: string, ref: string): number | undefined {
  if (ref.startsWith('link:')) return undefined;
  const candidates =
    read.dialect === 9
      ? [stripPeers(`${name}@${ref}`, 9), stripPeers(ref, 9)]
      : read.dialect === 6
        ? [`/${name}@${ref}`, ref, stripPeers(`/${name}@${ref}`, 6)]
        : [`/${name}/${ref}`, ref];
  for (const candidate of candidates) {
    const index = read.byKey.get(candidate);
    if (index !== undefined) return index;
  }
  return undefined;
}

function addEdges(read: PnpmRead, from: number, entry: Json): void {
  for (const [field, optional] of [
    ['dependencies', false],
    ['optionalDependencies', true],
  ] as const) {
    for (const [dep, ref] of stringEntries(entry[field])) {
      const to = resolveRef(read, dep, ref);
      if (to !== undefined) read.graph.edge(from, to, optional);
    }
  }
}

/** pnpm 9 keeps edges in `snapshots`, one per peer variant of a package. */
function readSnapshots(read: PnpmRead, snapshots: Json): void {
  const seen = new Set<number>();
  for (const key of Object.keys(snapshots)) {
    const snapshot = snapshots[key];
    if (snapshot !== null && !isRecord(snapshot)) {
      read.errors.push({
        line: read.line('snapshots', key),
        message: `snapshots["${key}"] is not a mapping; skipped`,
      });
      continue;
    }
    const from = read.byKey.get(stripPeers(key, 9));
    if (from === undefined) {
      read.errors.push({
        line: read.line('snapshots', key),
        message: `snapshot ${key} has no packages entry; skipped`,
      });
      continue;
    }
    if (snapshot) addEdges(read, from, snapshot);
    const pkg = read.graph.packages[from];
    // Optional only when every peer variant is (a snapshot without the flag is required).
    const optional = snapshot?.optional === true;
    if (pkg) pkg.optional = seen.has(from) ? pkg.optional === true && optional : optional;
    seen.add(from);
  }
}

/** What each importer (workspace project) declares: the roots of the graph. */
function addImporters(read: PnpmRead, importers: Json): void {
  for (const importer of Object.values(importers)) {
    if (!isRecord(importer)) continue;
    for (const [field, scope] of [
      ['dependencies', 'runtime'],
      ['optionalDependencies', 'optional'],
      ['devDependencies', 'development'],
    ] as const) {
      const declared = importer[field];
      if (!isRecord(declared)) continue;
      for (const [dep, spec] of Object.entries(declared)) {
        const ref = typeof spec === 'string' ? spec : isRecord(spec) ? spec.version : undefined;
        if (typeof ref !== 'string') continue;
        const to = resolveRef(read, dep, ref);
        if (to !== undefined) read.graph.root(to, scope, null);
      }
    }
  }
}

export const pnpmLockExtractor: Extractor = {
  name: 'npm/pnpm-lock',
  version: 2,
  kind: 'lockfile',
  matches: (path) => path === 'pnpm-lock.yaml' || path.endsWith('/pnpm-lock.yaml'),
  extract: (input) => {
    try {
      return extract(input);
    } catch (error) {
      // Defensive: the YAML library is trusted to throw only what is caught inside.
      return {
        dependencies: [],
        errors: [fileError(`pnpm-lock.yaml could not be read: ${errorMessage(error)}`)],
      };
    }
  },
  describe: (input) => {
    const match = /^lockfileVersion:\s*['"]?([\d.]+)/m.exec(input.text.slice(0, 1024));
    return match ? `pnpm-lock.yaml v${match[1]}` : 'pnpm-lock.yaml';
  },
};

import { ownPackage, ownPackageFields } from '../dependency-list';
import { buildPurl } from '../purl';
import { isTomlTable, parseTomlOrThrow, tomlErrorMessage } from '../shared/toml';
import type {
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { parseCargoVersion } from './versioning';

interface LockPackage {
  name: string;
  version: string;
  /** The raw `source` string, or null for workspace members and path dependencies. */
  source: string | null;
  dependencies: string[];
  line: number | null;
}

/**
 * Maps a Cargo source id to a dependency source. `registry+` (crates.io or an alternate registry)
 * and `sparse+` are registries; `git+URL?branch=x#<commit>` is git at that commit.
 */
export function parseCargoSource(source: string): DependencySource {
  if (source.startsWith('registry+') || source.startsWith('sparse+')) return { kind: 'registry' };
  if (source.startsWith('git+')) {
    const raw = source.slice('git+'.length);
    const hash = raw.indexOf('#');
    const ref = hash >= 0 ? raw.slice(hash + 1) : null;
    const withoutRef = hash >= 0 ? raw.slice(0, hash) : raw;
    const query = withoutRef.indexOf('?');
    const url = query >= 0 ? withoutRef.slice(0, query) : withoutRef;
    return { kind: 'git', url, ref: ref || null };
  }
  if (source.startsWith('path+')) return { kind: 'path', path: source.slice('path+'.length) };
  return { kind: 'url', url: source };
}

/** Reads one `[[package]]` table (or the pre-2017 `[root]`); returns an error message when bad. */
function toPackage(table: unknown, line: number | null): LockPackage | string {
  if (!isTomlTable(table)) return 'package entry is not a table';
  const { name, version, source, dependencies } = table;
  if (typeof name !== 'string' || name.length === 0) return 'package without a name';
  if (typeof version !== 'string' || !parseCargoVersion(version)) {
    return `package ${name} has an invalid version ${JSON.stringify(version)}`;
  }
  if (source !== undefined && typeof source !== 'string') return `package ${name}: bad source`;
  if (dependencies !== undefined && !Array.isArray(dependencies)) {
    return `package ${name}: dependencies is not an array`;
  }
  const deps = (dependencies ?? []).filter((d): d is string => typeof d === 'string');
  return { name, version, source: source ?? null, dependencies: deps, line };
}

/** Line numbers of every `[[package]]` header, in file order: one pass over the text. */
function packageHeaderLines(lines: string[]): number[] {
  const result: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.charCodeAt(0) === 91 /* [ */ && /^\[\[\s*package\s*\]\]/.test(line))
      result.push(i + 1);
  }
  return result;
}

/**
 * When the whole file does not parse (truncated, hand-edited), parses each table on its own so that
 * the good packages survive. Cargo writes one table header per line at column 0.
 */
function salvage(lines: string[], errors: ExtractionError[]): LockPackage[] {
  const packages: LockPackage[] = [];
  let start = -1;
  const flush = (end: number) => {
    if (start < 0) return;
    const header = lines[start] as string;
    const isPackage = /^\[\[\s*package\s*\]\]/.test(header);
    const isRoot = /^\[\s*root\s*\]/.test(header);
    if (isPackage || isRoot) {
      const chunk = lines.slice(start, end).join('\n');
      try {
        const doc = parseTomlOrThrow(chunk);
        const table = isRoot ? doc.root : (doc.package as unknown[] | undefined)?.[0];
        const pkg = toPackage(table, start + 1);
        if (typeof pkg === 'string') errors.push({ line: start + 1, message: pkg });
        else packages.push(pkg);
      } catch (error) {
        errors.push({
          line: start + 1,
          message: `skipped package: ${tomlErrorMessage(error, false)}`,
        });
      }
    }
    start = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] as string).startsWith('[')) {
      flush(i);
      start = i;
    }
  }
  flush(lines.length);
  return packages;
}

/** Splits `"name"`, `"name version"` or `"name version (source)"`. */
function parseDependencyRef(text: string): { name: string; version?: string; source?: string } {
  const open = text.indexOf(' (');
  const source = open >= 0 && text.endsWith(')') ? text.slice(open + 2, -1) : undefined;
  const head = (open >= 0 ? text.slice(0, open) : text).trim().split(/\s+/);
  return { name: head[0] ?? '', version: head[1], source };
}

export interface CargoLockInfo {
  /** `version = N` of the file, or 1 / 2 inferred (v1 keeps checksums in `[metadata]`). */
  version: number;
  packages: LockPackage[];
  errors: ExtractionError[];
}

export function parseCargoLock(text: string): CargoLockInfo {
  const lines = text.split('\n');
  const errors: ExtractionError[] = [];
  let doc: Record<string, unknown> | null = null;
  try {
    doc = parseTomlOrThrow(text);
  } catch (error) {
    errors.push({
      line: null,
      message: `Cargo.lock is not valid TOML: ${tomlErrorMessage(error)}`,
    });
  }
  if (!doc) return { version: inferVersion(text, null), packages: salvage(lines, errors), errors };

  const packages: LockPackage[] = [];
  const tables = Array.isArray(doc.package) ? doc.package : [];
  const headerLines = packageHeaderLines(lines);
  // Lines are only trusted when the headers found match the parsed tables one to one.
  const linesKnown = headerLines.length === tables.length;
  if (isTomlTable(doc.root)) {
    const rootHeader = lines.findIndex((line) => /^\[\s*root\s*\]/.test(line));
    const root = toPackage(doc.root, rootHeader >= 0 ? rootHeader + 1 : null);
    if (typeof root === 'string') errors.push({ line: null, message: root });
    else packages.push({ ...root, source: null });
  }
  tables.forEach((table, index) => {
    const line = linesKnown ? (headerLines[index] ?? null) : null;
    const pkg = toPackage(table, line);
    if (typeof pkg === 'string') errors.push({ line, message: pkg });
    else packages.push(pkg);
  });
  return { version: inferVersion(text, doc), packages, errors };
}

function inferVersion(text: string, doc: Record<string, unknown> | null): number {
  const declared = doc ? doc.version : /^version\s*=\s*(\d+)/m.exec(text)?.[1];
  if (typeof declared === 'number' || typeof declared === 'string') return Number(declared);
  return /^\[metadata\]/m.test(text) ? 1 : 2;
}

/**
 * A package without a `source`: the root crate, a workspace member or a path dependency, i.e. the
 * repository's own code. Cargo.lock does not record where it lives, so its source is the project.
 */
function selfCrate(pkg: LockPackage, parents: string[]): ExtractedDependency {
  const own = ownPackageFields(pkg.name, pkg.version, pkg.line);
  return ownPackage(own, buildPurl('cargo', pkg.name, pkg.version), parents);
}

/**
 * Cargo.lock v1–v4. Packages without a `source` are the workspace's own crates (members and path
 * dependencies): they are the project, reported with `scope: 'self'`, and the roots that make a
 * crate `direct`. Edges come from each package's `dependencies` list. The lock
 * does not say which edges are dev or build dependencies, so every entry is `runtime`.
 */
export function extractCargoLock(input: ExtractInput): ExtractionResult {
  try {
    const { packages, errors } = parseCargoLock(input.text);
    const byName = new Map<string, LockPackage[]>();
    for (const pkg of packages) {
      const list = byName.get(pkg.name);
      if (list) list.push(pkg);
      else byName.set(pkg.name, [pkg]);
    }
    const parents = new Map<LockPackage, string[]>();
    const direct = new Set<LockPackage>();
    for (const pkg of packages) {
      for (const ref of pkg.dependencies) {
        const { name, version, source } = parseDependencyRef(ref);
        const candidates = byName.get(name) ?? [];
        const target =
          candidates.find(
            (c) =>
              (version === undefined || c.version === version) &&
              (source === undefined || c.source === source),
          ) ?? candidates.find((c) => version === undefined || c.version === version);
        if (!target) {
          errors.push({ line: pkg.line, message: `${pkg.name} depends on unknown package ${ref}` });
          continue;
        }
        const list = parents.get(target) ?? [];
        if (!list.includes(pkg.name)) list.push(pkg.name);
        parents.set(target, list);
        if (pkg.source === null) direct.add(target);
      }
    }
    const dependencies: ExtractedDependency[] = [];
    const seen = new Set<string>();
    for (const pkg of packages) {
      const key = `${pkg.name}@${pkg.version}@${pkg.source}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (pkg.source === null) {
        dependencies.push(selfCrate(pkg, parents.get(pkg) ?? []));
        continue;
      }
      dependencies.push({
        name: pkg.name,
        version: pkg.version,
        purl: buildPurl('cargo', pkg.name, pkg.version),
        scope: 'runtime',
        direct: direct.has(pkg),
        resolution: 'resolved',
        line: pkg.line,
        parents: parents.get(pkg) ?? [],
        source: parseCargoSource(pkg.source),
      });
    }
    // Package errors and edge errors come from two passes: whole-file errors first, then file order.
    errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return { dependencies, errors };
  } catch (error) {
    return { dependencies: [], errors: [{ line: null, message: `Cargo.lock: ${String(error)}` }] };
  }
}

export const cargoLockExtractor: Extractor = {
  name: 'cargo/cargo-lock',
  version: 2,
  kind: 'lockfile',
  matches: (path) => path === 'Cargo.lock' || path.endsWith('/Cargo.lock'),
  extract: extractCargoLock,
  describe: (input) => `Cargo.lock v${inferVersion(input.text, null)}`,
};

import { buildPurl } from '../purl';
import { isTomlTable, parseTomlOrThrow, tomlErrorMessage } from '../shared/toml';
import { dirOf, joinInTree } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { parseCargoVersion, toNpmRange } from './versioning';

/** Dependency tables and their scope; the underscore spellings are Cargo's deprecated aliases. */
const DEPENDENCY_TABLES: Record<string, DependencyScope> = {
  dependencies: 'runtime',
  'dev-dependencies': 'development',
  dev_dependencies: 'development',
  'build-dependencies': 'build',
  build_dependencies: 'build',
};

const MAX_MERGE_DEPTH = 32;
const MAX_WORKSPACE_HOPS = 32;

/** Splits a TOML key path (`target.'cfg(unix)'.dependencies`) into its unquoted segments. */
export function splitKeyPath(text: string): string[] | null {
  const keys: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    let key: string;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      const end = text.indexOf(quote, i + 1);
      if (end < 0) return null;
      key = text.slice(i + 1, end);
      i = end + 1;
    } else {
      const start = i;
      while (i < n && /[A-Za-z0-9_-]/.test(text[i] as string)) i++;
      if (i === start) return null;
      key = text.slice(start, i);
    }
    keys.push(key);
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i < n && text[i] !== '.') return null;
    i++;
  }
  return keys;
}

/**
 * Line of each key in each table, from one pass over the text: `[dependencies]` + `serde = "1"`
 * and `[dependencies.serde]` both record `dependencies/serde`. First occurrence wins.
 */
function indexKeyLines(lines: string[]): Map<string, number> {
  const index = new Map<string, number>();
  let table: string[] = [];
  const record = (path: string[], line: number) => {
    const key = JSON.stringify(path);
    if (!index.has(key)) index.set(key, line);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.startsWith('[')) {
      const array = line.startsWith('[[');
      const close = line.indexOf(array ? ']]' : ']');
      const path = close > 0 ? splitKeyPath(line.slice(array ? 2 : 1, close)) : null;
      table = path ?? [];
      if (path && path.length > 0) record(path, i + 1);
      continue;
    }
    const m = /^("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]/.exec(line);
    if (m) {
      const raw = m[1] as string;
      const key = raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1) : raw;
      record([...table, key], i + 1);
    }
  }
  return index;
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>, depth = 0) {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (depth < MAX_MERGE_DEPTH && isTomlTable(existing) && isTomlTable(value)) {
      deepMerge(existing, value, depth + 1);
    } else if (Array.isArray(existing) && Array.isArray(value)) {
      existing.push(...value);
    } else {
      target[key] = value;
    }
  }
}

/**
 * Parses the manifest; when it is not valid TOML, parses each table on its own (Cargo.toml tables
 * start with a header at the start of a line) so that the good sections survive.
 */
function parseManifest(lines: string[], text: string, errors: ExtractionError[]) {
  try {
    return parseTomlOrThrow(text);
  } catch (error) {
    errors.push({
      line: null,
      message: `Cargo.toml is not valid TOML: ${tomlErrorMessage(error)}`,
    });
  }
  const doc: Record<string, unknown> = {};
  let start = 0;
  const flush = (end: number) => {
    const chunk = lines.slice(start, end).join('\n');
    if (chunk.trim().length === 0) return;
    try {
      deepMerge(doc, parseTomlOrThrow(chunk));
    } catch (error) {
      errors.push({
        line: start + 1,
        message: `skipped section: ${tomlErrorMessage(error, false)}`,
      });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] as string).startsWith('[')) {
      flush(i);
      start = i;
    }
  }
  flush(lines.length);
  return doc;
}

/**
 * The `[workspace.dependencies]` a `{ workspace = true }` entry inherits from: this manifest's own
 * when it is the workspace root, the one `package.workspace` points to, or the first ancestor
 * Cargo.toml with a `[workspace]` table (Cargo's search), read through `readFile`.
 */
function findWorkspaceDependencies(
  input: ExtractInput,
  doc: Record<string, unknown>,
): Record<string, unknown> | null {
  const own = doc.workspace;
  if (isTomlTable(own)) return isTomlTable(own.dependencies) ? own.dependencies : {};
  const pointer = isTomlTable(doc.package) ? doc.package.workspace : undefined;
  const here = dirOf(input.path);
  const candidates: string[] = [];
  if (typeof pointer === 'string') {
    const dir = joinInTree(here, pointer);
    if (dir !== null) candidates.push(dir === '' ? 'Cargo.toml' : `${dir}/Cargo.toml`);
  } else {
    let dir = here;
    for (let hop = 0; dir !== '' && hop < MAX_WORKSPACE_HOPS; hop++) {
      dir = dirOf(dir);
      candidates.push(dir === '' ? 'Cargo.toml' : `${dir}/Cargo.toml`);
    }
  }
  for (const candidate of candidates) {
    const text = input.readFile(candidate);
    if (text === null) continue;
    try {
      const root = parseTomlOrThrow(text);
      if (isTomlTable(root.workspace)) {
        return isTomlTable(root.workspace.dependencies) ? root.workspace.dependencies : {};
      }
    } catch {
      // An unparsable ancestor manifest is that file's error, reported when it is extracted.
    }
  }
  return null;
}

interface DependencyTable {
  path: string[];
  scope: DependencyScope;
  entries: Record<string, unknown>;
}

/** Every dependency table of the manifest, in a stable order. */
function dependencyTables(doc: Record<string, unknown>): DependencyTable[] {
  const tables: DependencyTable[] = [];
  const collect = (owner: Record<string, unknown>, prefix: string[]) => {
    for (const [table, scope] of Object.entries(DEPENDENCY_TABLES)) {
      const entries = owner[table];
      if (isTomlTable(entries)) tables.push({ path: [...prefix, table], scope, entries });
    }
  };
  collect(doc, []);
  if (isTomlTable(doc.target)) {
    for (const [cfg, value] of Object.entries(doc.target)) {
      if (isTomlTable(value)) collect(value, ['target', cfg]);
    }
  }
  if (isTomlTable(doc.workspace) && isTomlTable(doc.workspace.dependencies)) {
    // The root's shared declarations: the versions every member inheriting them uses.
    tables.push({
      path: ['workspace', 'dependencies'],
      scope: 'runtime',
      entries: doc.workspace.dependencies,
    });
  }
  return tables;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Cargo.toml: `[dependencies]`, `[dev-dependencies]` (development), `[build-dependencies]` (build),
 * their `[target.'cfg(…)'.…]` forms, and a workspace root's `[workspace.dependencies]`.
 * `{ workspace = true }` takes version/git/path/package from the workspace root. A renamed
 * dependency (`package = "real"`) is reported under the published name. `optional = true` on a
 * normal dependency gives scope `optional`. `=1.2.3` is an exact pin (`resolved`), `*` or no version
 * is `unpinned`, anything else `declared` with the requirement as written.
 */
export function extractCargoToml(input: ExtractInput): ExtractionResult {
  try {
    const errors: ExtractionError[] = [];
    const lines = input.text.split('\n');
    const doc = parseManifest(lines, input.text, errors);
    const keyLines = indexKeyLines(lines);
    let workspace: Record<string, unknown> | null | undefined;
    const dependencies: ExtractedDependency[] = [];
    const seen = new Set<string>();

    for (const table of dependencyTables(doc)) {
      for (const [key, raw] of Object.entries(table.entries)) {
        const line = keyLines.get(JSON.stringify([...table.path, key])) ?? null;
        let spec: Record<string, unknown>;
        if (typeof raw === 'string') spec = { version: raw };
        else if (isTomlTable(raw)) spec = raw;
        else {
          errors.push({ line, message: `dependency ${key} is neither a string nor a table` });
          continue;
        }
        if (spec.workspace === true) {
          if (workspace === undefined) workspace = findWorkspaceDependencies(input, doc);
          const inherited = workspace?.[key];
          // Unresolvable inheritance (the root is outside the scanned tree) leaves it unpinned.
          const base = typeof inherited === 'string' ? { version: inherited } : inherited;
          spec = { ...(isTomlTable(base) ? base : {}), optional: spec.optional };
        }
        const name = str(spec.package) ?? key;
        const git = str(spec.git);
        const path = str(spec.path);
        const source: DependencySource = git
          ? {
              kind: 'git',
              url: git,
              ref: str(spec.rev) ?? str(spec.tag) ?? str(spec.branch) ?? null,
            }
          : path
            ? { kind: 'path', path }
            : { kind: 'registry' };
        const requirement = str(spec.version)?.trim();
        if (spec.version !== undefined && requirement === undefined) {
          errors.push({ line, message: `dependency ${key} has a non-string version` });
          continue;
        }
        if (requirement !== undefined && toNpmRange(requirement) === null) {
          errors.push({
            line,
            message: `dependency ${key} has an invalid requirement ${requirement}`,
          });
          continue;
        }
        let version: string | null = null;
        let resolution: ExtractedDependency['resolution'] = 'unpinned';
        const exact = requirement?.startsWith('=') ? requirement.slice(1).trim() : undefined;
        if (exact !== undefined && parseCargoVersion(exact)) {
          version = exact;
          resolution = 'resolved';
        } else if (requirement !== undefined && requirement !== '*') {
          version = requirement;
          resolution = 'declared';
        }
        const scope: DependencyScope =
          table.scope === 'runtime' && spec.optional === true ? 'optional' : table.scope;
        const dedupKey = JSON.stringify([name, version, scope, source]);
        if (seen.has(dedupKey)) continue;
        seen.add(dedupKey);
        dependencies.push({
          name,
          version,
          purl: buildPurl('cargo', name, resolution === 'resolved' ? version : null),
          scope,
          direct: true,
          resolution,
          line,
          parents: [],
          source,
        });
      }
    }
    return { dependencies, errors };
  } catch (error) {
    return { dependencies: [], errors: [{ line: null, message: `Cargo.toml: ${String(error)}` }] };
  }
}

/** `Cargo.toml (workspace: 2 member patterns)` for a workspace root, `Cargo.toml` otherwise. */
function describeCargoToml(input: ExtractInput): string {
  try {
    const doc = parseTomlOrThrow(input.text);
    if (isTomlTable(doc.workspace)) {
      const members = Array.isArray(doc.workspace.members) ? doc.workspace.members.length : 0;
      const kind = isTomlTable(doc.package) ? 'workspace root with package' : 'workspace';
      return `Cargo.toml (${kind}: ${members} member pattern${members === 1 ? '' : 's'})`;
    }
  } catch {
    // Fall through: the extraction reports the parse error.
  }
  return 'Cargo.toml';
}

export const cargoTomlExtractor: Extractor = {
  name: 'cargo/cargo-toml',
  version: 1,
  kind: 'manifest',
  matches: (path) => path === 'Cargo.toml' || path.endsWith('/Cargo.toml'),
  extract: extractCargoToml,
  describe: describeCargoToml,
};

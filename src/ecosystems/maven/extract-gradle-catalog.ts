import {
  isTomlTable as isTable,
  parseTomlOrThrow,
  type TomlTable as Table,
  tomlErrorFirstLine,
  tomlErrorLine,
} from '../shared/toml';
import type {
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { dedupeDependencies, mavenDependency } from './common';

/** One `[libraries]` entry with its version already looked up in `[versions]`. */
export interface CatalogLibrary {
  alias: string;
  group: string;
  artifact: string;
  version: string | null;
  line: number | null;
}

export interface VersionCatalog {
  /** Keyed by normalised accessor path (`groovy-json` → `groovy.json`). */
  libraries: Map<string, CatalogLibrary>;
  bundles: Map<string, string[]>;
  versions: Map<string, string | null>;
}

export interface CatalogParseResult {
  catalog: VersionCatalog | null;
  errors: ExtractionError[];
}

/** Gradle accessors treat `-`, `_` and `.` in aliases alike: `libs.groovy.json`. */
export function catalogAccessor(alias: string): string {
  return alias.replace(/[-_.]/g, '.').toLowerCase();
}

function stripStrict(version: string): string {
  // `1.0!!` is Gradle's shorthand for `strictly 1.0`.
  return version.endsWith('!!') ? version.slice(0, -2) : version;
}

/**
 * A rich version picks what Gradle would resolve without conflicts: an exact `strictly`, else
 * `require`, else `prefer`, else the `strictly` range itself.
 */
function richVersion(value: unknown): string | null {
  if (typeof value === 'string') return stripStrict(value.trim()) || null;
  if (!isTable(value)) return null;
  const pick = (key: string) =>
    typeof value[key] === 'string' ? (value[key] as string).trim() : null;
  const strictly = pick('strictly');
  if (strictly && !/[[\]()+,]/.test(strictly)) return strictly;
  return pick('require') ?? pick('prefer') ?? strictly;
}

/** Line of every `key =` inside `[section]` (quoted keys unquoted), one pass over the text. */
function keyLines(text: string, section: string): Map<string, number> {
  const lines = new Map<string, number>();
  let current = '';
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.trimStart();
    if (row.startsWith('[')) {
      current = row.slice(1, row.indexOf(']') === -1 ? row.length : row.indexOf(']')).trim();
      continue;
    }
    if (current !== section) continue;
    const match = /^("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=/.exec(row);
    if (match) lines.set(match[1]!.replace(/^["']|["']$/g, ''), i + 1);
  }
  return lines;
}

function libraryFrom(
  alias: string,
  raw: unknown,
  versions: Map<string, string | null>,
): Omit<CatalogLibrary, 'line'> | string {
  if (typeof raw === 'string') {
    const parts = raw.split(':');
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => p.trim() === '')) {
      return `library ${alias}: expected "group:artifact:version", got ${JSON.stringify(raw)}`;
    }
    return { alias, group: parts[0]!, artifact: parts[1]!, version: richVersion(parts[2] ?? null) };
  }
  if (!isTable(raw)) return `library ${alias}: unsupported declaration`;
  let group: unknown = raw.group;
  let artifact: unknown = raw.name;
  if (typeof raw.module === 'string') {
    [group, artifact] = raw.module.split(':');
  }
  if (typeof group !== 'string' || typeof artifact !== 'string' || !group || !artifact) {
    return `library ${alias}: missing module or group/name`;
  }
  let version: string | null = null;
  const declared = raw.version;
  if (isTable(declared) && typeof declared.ref === 'string') {
    version = versions.get(declared.ref) ?? null;
  } else if (declared !== undefined) {
    version = richVersion(declared);
  }
  return { alias, group, artifact, version };
}

export function parseVersionCatalog(text: string): CatalogParseResult {
  let document: Table;
  try {
    // The shared parser's limits (prototype keys dropped, nesting capped) apply here as well.
    document = parseTomlOrThrow(text);
  } catch (error) {
    const line = tomlErrorLine(error);
    const message = tomlErrorFirstLine(error).replace(/^Invalid TOML document: /, '');
    return {
      catalog: null,
      errors: [{ line: null, message: `invalid TOML at line ${line}: ${message}` }],
    };
  }
  const errors: ExtractionError[] = [];
  const versions = new Map<string, string | null>();
  if (isTable(document.versions)) {
    for (const [key, value] of Object.entries(document.versions))
      versions.set(key, richVersion(value));
  }
  const libraryLines = keyLines(text, 'libraries');
  const libraries = new Map<string, CatalogLibrary>();
  if (isTable(document.libraries)) {
    for (const [alias, raw] of Object.entries(document.libraries)) {
      const line = libraryLines.get(alias) ?? null;
      const library = libraryFrom(alias, raw, versions);
      if (typeof library === 'string') errors.push({ line, message: library });
      else libraries.set(catalogAccessor(alias), { ...library, line });
    }
  }
  const bundles = new Map<string, string[]>();
  if (isTable(document.bundles)) {
    for (const [alias, members] of Object.entries(document.bundles)) {
      if (!Array.isArray(members)) continue;
      bundles.set(
        catalogAccessor(alias),
        members.filter((m): m is string => typeof m === 'string').map(catalogAccessor),
      );
    }
  }
  const accessorVersions = new Map<string, string | null>();
  for (const [key, value] of versions) accessorVersions.set(catalogAccessor(key), value);
  return { catalog: { libraries, bundles, versions: accessorVersions }, errors };
}

/**
 * gradle/libs.versions.toml: every `[libraries]` entry is a declared dependency (the catalog does
 * not say which configuration uses it → runtime). `[plugins]` are Gradle plugins, not dependencies.
 */
export function extractGradleCatalog(input: ExtractInput): ExtractionResult {
  const { catalog, errors } = parseVersionCatalog(input.text);
  if (!catalog) return { dependencies: [], errors };
  const dependencies: ExtractedDependency[] = [];
  for (const library of catalog.libraries.values()) {
    dependencies.push(
      mavenDependency({
        group: library.group,
        artifact: library.artifact,
        version: library.version,
        scope: 'runtime',
        direct: true,
        line: library.line,
      }),
    );
  }
  return { dependencies: dedupeDependencies(dependencies), errors };
}

export const gradleCatalogExtractor: Extractor = {
  name: 'maven/gradle-catalog',
  version: 1,
  kind: 'manifest',
  matches: (path) => /(^|\/)gradle\/[^/]+\.versions\.toml$/.test(path),
  extract: extractGradleCatalog,
  describe: () => 'Gradle version catalog',
};

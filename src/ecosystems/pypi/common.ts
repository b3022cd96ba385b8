import { parse as parseTomlText } from 'smol-toml';
import { buildPurl } from '../purl';
import { dirOf } from '../tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractionError,
  Resolution,
} from '../types';

export const PURL_TYPE = 'pypi';

/** PEP 503: lower case, every run of `-`, `_` and `.` becomes one `-`. */
export function normaliseName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');
}

/** PEP 508 names: ASCII letters and digits, inner `.`, `-`, `_`. */
export function isValidName(name: string): boolean {
  return /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(name);
}

export const REGISTRY: DependencySource = { kind: 'registry' };

export interface DependencyFields {
  name: string;
  version: string | null;
  resolution: Resolution;
  scope: DependencyScope;
  direct: boolean;
  line: number | null;
  parents?: string[];
  source?: DependencySource;
}

/** Builds a dependency with a normalised name and a purl that carries only resolved versions. */
export function makeDependency(fields: DependencyFields): ExtractedDependency {
  const name = normaliseName(fields.name);
  const resolved = fields.resolution === 'resolved' ? fields.version : null;
  return {
    name,
    version: fields.version,
    purl: buildPurl(PURL_TYPE, name, resolved),
    scope: fields.scope,
    direct: fields.direct,
    resolution: fields.resolution,
    line: fields.line,
    parents: fields.parents ?? [],
    source: fields.source ?? REGISTRY,
  };
}

export { dedupe } from '../dependency-list';

/** Order of precedence when one package belongs to several groups: the widest reach wins. */
export const SCOPE_PRIORITY: readonly DependencyScope[] = [
  'runtime',
  'optional',
  'build',
  'development',
  'test',
];

export function widestScope(scopes: Iterable<DependencyScope>): DependencyScope | null {
  let best: DependencyScope | null = null;
  for (const scope of scopes) {
    if (best === null || SCOPE_PRIORITY.indexOf(scope) < SCOPE_PRIORITY.indexOf(best)) {
      best = scope;
    }
  }
  return best;
}

const TEST_WORDS = new Set(['test', 'tests', 'testing', 'ci', 'e2e', 'unittest', 'pytest']);
const DEV_WORDS = new Set([
  'dev',
  'devel',
  'develop',
  'development',
  'doc',
  'docs',
  'lint',
  'linting',
  'typing',
  'mypy',
  'style',
  'format',
  'check',
  'checks',
  'release',
  'tools',
]);
const BUILD_WORDS = new Set(['build', 'dist', 'packaging']);

/**
 * Scope of a named group, extra, category or file (`test`, `docs`, `dev-requirements`, ...):
 * the words of the name decide, `fallback` when none is telling.
 */
export function groupScope(name: string, fallback: DependencyScope): DependencyScope {
  const words = name.toLowerCase().split(/[^a-z0-9]+/);
  if (words.some((w) => TEST_WORDS.has(w))) return 'test';
  if (words.some((w) => DEV_WORDS.has(w))) return 'development';
  if (words.some((w) => BUILD_WORDS.has(w))) return 'build';
  return fallback;
}

export type TomlTable = Record<string, unknown>;

export function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type TomlParse = { ok: true; value: TomlTable } | { ok: false; error: ExtractionError };

/** TOML through smol-toml with prototype keys dropped and nesting bounded. */
export function parseToml(text: string, what: string): TomlParse {
  try {
    return {
      ok: true,
      value: parseTomlText(text, { unsafeKeyBehaviour: 'drop', maxDepth: 64 }) as TomlTable,
    };
  } catch (e) {
    const err = e as { message?: string; line?: number };
    const firstLine = String(err.message ?? e).split('\n')[0];
    const at = typeof err.line === 'number' && err.line > 0 ? ` at line ${err.line}` : '';
    return {
      ok: false,
      error: { line: null, message: `${what} is not valid TOML${at}: ${firstLine}` },
    };
  }
}

export function stringOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export { dirOf, joinInTree as resolveInTree } from '../tree-paths';

export function siblingPath(path: string, name: string): string {
  const dir = dirOf(path);
  return dir === '' ? name : `${dir}/${name}`;
}

/**
 * Line numbers for offsets visited in increasing order: counts newlines only between the previous
 * offset and the next, so a whole file costs one pass.
 */
export function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    if (offset < at) {
      at = 0;
      line = 1;
    }
    let nl = text.indexOf('\n', at);
    while (nl !== -1 && nl < offset) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    at = offset;
    return line;
  };
}

import type { DependencyFields } from '../dependency-list';
import { buildPurl } from '../purl';
import type { DependencyScope, DependencySource, ExtractedDependency } from '../types';

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
    parents: fields.parents ? [...fields.parents] : [],
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

export { isObject as isTable } from '../../core/json-values';

export function stringOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export {
  dirOf,
  joinInTree as resolveInTree,
  siblingOf as siblingPath,
} from '../shared/tree-paths';

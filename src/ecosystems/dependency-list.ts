import { compositeKey } from '../core/composite-key';
import type { DependencySource, ExtractedDependency } from './types';

/**
 * What an ecosystem's dependency builder (npm `makeDependency`, PyPI `makeDependency`, NuGet
 * `nugetDependency`) is given: an ExtractedDependency before its purl, parents and source
 * defaulting to none and the registry.
 */
export type DependencyFields = Omit<ExtractedDependency, 'purl' | 'parents' | 'source'> & {
  parents?: Iterable<string>;
  source?: DependencySource;
};

/** An ExtractedDependency before its purl and parents, the project's own package's shape. */
export type OwnPackageFields = Omit<ExtractedDependency, 'purl' | 'parents'>;

/**
 * The project's own package (docs/extraction.md "The project's own package"): scope `self`,
 * never direct, sourced from the project itself (`path: '.'`), and unpinned when the file
 * records no version for it. Each ecosystem adds its purl (through its builder) and parents.
 */
export function ownPackageFields(
  name: string,
  version: string | null,
  line: number | null,
): OwnPackageFields {
  return {
    name,
    version,
    resolution: version === null ? 'unpinned' : 'resolved',
    scope: 'self',
    direct: false,
    line,
    source: { kind: 'path', path: '.' },
  };
}

/** The whole own package, for an ecosystem that builds its purl itself (fields in the usual order). */
export function ownPackage(
  own: OwnPackageFields,
  purl: string,
  parents: string[] = [],
): ExtractedDependency {
  const { name, version, scope, direct, resolution, line, source } = own;
  return { name, version, purl, scope, direct, resolution, line, parents, source };
}

/**
 * Drops exact duplicates (same name, version and scope) within one file, keeping the first
 * occurrence; a repeat still contributes its parents and its directness.
 */
export function dedupe(dependencies: ExtractedDependency[]): ExtractedDependency[] {
  const seen = new Map<string, ExtractedDependency>();
  const out: ExtractedDependency[] = [];
  for (const dependency of dependencies) {
    const key = compositeKey(dependency.name, dependency.version ?? '', dependency.scope);
    const first = seen.get(key);
    if (!first) {
      seen.set(key, dependency);
      out.push(dependency);
      continue;
    }
    first.direct ||= dependency.direct;
    for (const parent of dependency.parents) {
      if (!first.parents.includes(parent)) first.parents.push(parent);
    }
  }
  return out;
}

/**
 * False for the project's own package (scope `self`) and for a Go module replaced by another
 * module (the replacement is listed itself): both are reported and matched against advisories,
 * but neither is a dependency of its own, so never counted as one (docs/extraction.md "The
 * project's own package", docs/vulnerabilities-matching.md "Go replace"). The SQL spelling of
 * the same rule over the stored rows, `COUNTED_DEPENDENCY_SQL`, lives with their table's owner
 * (src/domains/repositories/counted-dependencies.ts).
 */
export function isDependency(dependency: { scope: string; source: DependencySource }): boolean {
  if (dependency.scope === 'self') return false;
  return !(dependency.source.kind === 'replaced' && dependency.source.version !== null);
}

/**
 * Whether a dependency is matched against advisories: everything but the project's own package
 * when its version is unknown (a go.mod module, an unversioned pom): a working copy with no
 * version says nothing about which releases' advisories apply.
 */
export function isMatchable(dependency: { scope: string; resolution: string }): boolean {
  return dependency.scope !== 'self' || dependency.resolution === 'resolved';
}

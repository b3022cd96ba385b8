import { buildPurl } from '../purl';
import type { DependencyScope, ExtractedDependency, Resolution } from '../types';
import { isMavenRange, isValidMavenVersion } from './versioning';

/** Maven coordinates are case-sensitive; only surrounding whitespace is dropped. */
export function normaliseMavenName(name: string): string {
  return name.trim();
}

/** How sure a declared Maven/Gradle version text is. */
export function classifyMavenVersion(version: string | null): Resolution {
  if (version === null || version.length === 0) return 'unpinned';
  // Unresolved `${prop}`/`$var`, ranges, Gradle dynamic versions (`1.+`, `latest.release`) and
  // Maven's LATEST/RELEASE meta versions stay declared text.
  if (isMavenRange(version) || !isValidMavenVersion(version)) return 'declared';
  return 'resolved';
}

export interface MavenDepInput {
  group: string;
  artifact: string;
  version: string | null;
  scope: DependencyScope;
  direct: boolean;
  line: number | null;
  parents?: string[];
  resolution?: Resolution;
}

export function mavenDependency(input: MavenDepInput): ExtractedDependency {
  const name = normaliseMavenName(`${input.group}:${input.artifact}`);
  const version = input.version === null || input.version.length === 0 ? null : input.version;
  const resolution = input.resolution ?? classifyMavenVersion(version);
  return {
    name,
    version,
    purl: buildPurl('maven', name, resolution === 'resolved' ? version : null),
    scope: input.scope,
    direct: input.direct,
    resolution,
    line: input.line,
    parents: input.parents ?? [],
    source: { kind: 'registry' },
  };
}

export { dedupe as dedupeDependencies } from '../dependency-list';

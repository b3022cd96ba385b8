import type { DependencyFields } from '../dependency-list';
import { buildPurl } from '../purl';
import type { ExtractedDependency, Resolution } from '../types';
import { exactNuGetVersion, isNuGetRange, parseNuGetVersion } from './versioning';

/**
 * NuGet package IDs are case-insensitive: names are stored lowercased (as the lockfile's own
 * project keys and the v3 registry's flat-container paths are) so that `Newtonsoft.Json` in a
 * .csproj and `newtonsoft.json` in an advisory match.
 */
export function normaliseNuGetName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * How sure a declared NuGet version is. A bare version is NuGet's minimum, but restore picks the
 * lowest applicable version, so it is what gets installed: `resolved`, like `[1.2.3]`. Ranges,
 * floating versions and unevaluated `$(Property)` references stay `declared`.
 */
export function classifyNuGetVersion(text: string | null): {
  version: string | null;
  resolution: Resolution;
} {
  const version = text?.trim() ?? '';
  if (version.length === 0) return { version: null, resolution: 'unpinned' };
  if (version.includes('$(')) return { version, resolution: 'declared' };
  const exact = exactNuGetVersion(version);
  if (exact !== null) return { version: exact, resolution: 'resolved' };
  if (!isNuGetRange(version) && parseNuGetVersion(version))
    return { version, resolution: 'resolved' };
  return { version, resolution: 'declared' };
}

export function nugetDependency(input: DependencyFields): ExtractedDependency {
  const name = normaliseNuGetName(input.name);
  const source = input.source ?? { kind: 'registry' };
  const pinned = input.resolution === 'resolved' && source.kind === 'registry';
  return {
    name,
    version: input.version,
    purl: buildPurl('nuget', name, pinned ? input.version : null),
    scope: input.scope,
    direct: input.direct,
    resolution: input.resolution,
    line: input.line,
    parents: input.parents ? [...input.parents] : [],
    source,
  };
}

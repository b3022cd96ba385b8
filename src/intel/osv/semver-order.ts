import { parse, type SemVer, satisfies as semverSatisfies, validRange } from 'semver';
import type { Versioning } from '../../ecosystems/types';

/**
 * The ordering of OSV `SEMVER` ranges: SemVer 2.0.0 precedence (build metadata ignored, a
 * pre-release before its release). A leading `v` is accepted, as Go and some crates write it.
 * Invalid versions sort after valid ones, by string, and never throw.
 */
function parseSemver(version: string): SemVer | null {
  if (version.length > 256) return null;
  try {
    return parse(version.startsWith('v') ? version.slice(1) : version);
  } catch {
    return null;
  }
}

export const semverOrdering: Versioning = {
  isValid: (version) => parseSemver(version) !== null,
  compare: (a, b) => {
    const pa = parseSemver(a);
    const pb = parseSemver(b);
    if (pa && pb) return pa.compare(pb);
    if (pa) return -1;
    if (pb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  },
  isPrerelease: (version) => (parseSemver(version)?.prerelease.length ?? 0) > 0,
  satisfies: (version, range) => {
    try {
      return semverSatisfies(version, range);
    } catch {
      return false;
    }
  },
  isRange: (spec) => parseSemver(spec) === null && validRange(spec) !== null,
};

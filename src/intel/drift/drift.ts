import { memoByString } from '../../core/memo';
import type { Versioning } from '../../ecosystems/types';

/**
 * Drift of one dependency (docs/package-intelligence.md#drift): how far the used version is from
 * the newest stable release, in time (libyear) and in releases (major/minor/patch behind), and
 * whether the used version is deprecated, yanked or end-of-life. Pure: the facts come in, the
 * clock is a parameter.
 */

export interface VersionFact {
  version: string;
  publishedAt: Date | null;
  deprecated: string | null;
  yanked: boolean;
  prerelease: boolean;
}

export interface PackageFacts {
  /** Every version the registry lists, ascending in the ecosystem's order. */
  versions: readonly VersionFact[];
  latestStable: string | null;
  /** Package-level deprecation (npm all versions, Packagist abandoned, ...). */
  deprecated: string | null;
}

export interface UsedVersion {
  /** Exact version (resolved), range (declared) or null (unpinned). */
  version: string | null;
  resolution: 'resolved' | 'declared' | 'unpinned';
}

export interface DriftOptions {
  now: Date;
  /** A superseded major line without a release for this long is end-of-life. */
  endOfLifeAfterDays: number;
}

export type DriftState = 'measured' | 'unknown_version';

export interface Behind {
  major: number;
  minor: number;
  patch: number;
  /** Every newer stable release, whatever part changed. */
  versions: number;
}

export interface DependencyDrift {
  state: DriftState;
  /** The version compared: the used one, or for a range the highest release it allows. */
  comparedVersion: string | null;
  latestStable: string | null;
  /** Years between the release of the compared version and of the newest stable release. */
  libyear: number | null;
  behind: Behind | null;
  deprecated: boolean;
  deprecationMessage: string | null;
  yanked: boolean;
  endOfLife: boolean;
  /** Why it is end-of-life (null when it is not). */
  endOfLifeReason: string | null;
  /** The resolved version is not in the registry's listing (removed, or yanked and hidden). */
  unlisted: boolean;
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/** Leading numeric release components (`v1.2.3-rc1` → [1,2,3]; PyPI `1!2.0` → [2,0,0]). */
export const releaseComponents = memoByString(parseReleaseComponents);

function parseReleaseComponents(version: string): readonly [number, number, number] | null {
  const trimmed = version.trim().replace(/^[vV]/, '').replace(/^\d+!/, '');
  const match = /^(\d{1,15})(?:\.(\d{1,15}))?(?:\.(\d{1,15}))?/.exec(trimmed);
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function safeCompare(versioning: Versioning, a: string, b: string): number {
  try {
    return versioning.compare(a, b);
  } catch {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

function safeSatisfies(versioning: Versioning, version: string, range: string): boolean {
  try {
    return versioning.satisfies(version, range);
  } catch {
    return false;
  }
}

/** The listed version a used version refers to (exact text first, then equal by ordering). */
export function findVersion(
  versions: readonly VersionFact[],
  version: string,
  versioning: Versioning,
): VersionFact | undefined {
  const exact = versions.find((v) => v.version === version);
  if (exact) return exact;
  return versions.find((v) => safeCompare(versioning, v.version, version) === 0);
}

/** What a fresh install of a range would pick: the highest listed, not yanked version it allows. */
export function resolveRange(
  versions: readonly VersionFact[],
  range: string,
  versioning: Versioning,
): VersionFact | undefined {
  const candidates = versions.filter(
    (v) => !v.yanked && safeSatisfies(versioning, v.version, range),
  );
  const stable = candidates.filter((v) => !v.prerelease);
  const pool = stable.length > 0 ? stable : candidates;
  let best: VersionFact | undefined;
  for (const v of pool) {
    if (!best || safeCompare(versioning, v.version, best.version) > 0) best = v;
  }
  return best;
}

/** Counts the stable releases newer than `used` up to `latest`, by the part that changed. */
export function versionsBehind(
  versions: readonly VersionFact[],
  used: string,
  latest: string,
  versioning: Versioning,
): Behind {
  const base = releaseComponents(used);
  const majors = new Set<number>();
  const minors = new Set<string>();
  const patches = new Set<string>();
  let count = 0;
  for (const v of versions) {
    if (v.prerelease || v.yanked) continue;
    if (safeCompare(versioning, v.version, used) <= 0) continue;
    if (safeCompare(versioning, v.version, latest) > 0) continue;
    count++;
    const parts = releaseComponents(v.version);
    if (!base || !parts) continue;
    if (parts[0] > base[0]) majors.add(parts[0]);
    else if (parts[0] === base[0] && parts[1] > base[1]) minors.add(`${parts[0]}.${parts[1]}`);
    else if (parts[0] === base[0] && parts[1] === base[1] && parts[2] > base[2]) {
      patches.add(parts.join('.'));
    }
  }
  return { major: majors.size, minor: minors.size, patch: patches.size, versions: count };
}

/**
 * End-of-life: the package is deprecated as a whole, or the used major line is superseded by a
 * newer major and has had no release for `endOfLifeAfterDays` (registries publish no EOL dates,
 * so an abandoned old line is the signal).
 */
export function endOfLifeReason(
  facts: PackageFacts,
  used: string,
  options: DriftOptions,
): string | null {
  if (facts.deprecated !== null) return `the package is deprecated: ${facts.deprecated}`;
  const base = releaseComponents(used);
  if (!base) return null;
  let newerMajor = false;
  let lineLast: Date | null = null;
  for (const v of facts.versions) {
    if (v.prerelease || v.yanked) continue;
    const parts = releaseComponents(v.version);
    if (!parts) continue;
    if (parts[0] > base[0]) newerMajor = true;
    if (parts[0] === base[0] && v.publishedAt && (!lineLast || v.publishedAt > lineLast)) {
      lineLast = v.publishedAt;
    }
  }
  if (!newerMajor || !lineLast) return null;
  const idleDays = (options.now.getTime() - lineLast.getTime()) / (24 * 3600 * 1000);
  if (idleDays < options.endOfLifeAfterDays) return null;
  return `major line ${base[0]} is superseded and has had no release since ${lineLast.toISOString().slice(0, 10)}`;
}

export function computeDependencyDrift(
  facts: PackageFacts,
  used: UsedVersion,
  versioning: Versioning,
  options: DriftOptions,
): DependencyDrift {
  const unknown: DependencyDrift = {
    state: 'unknown_version',
    comparedVersion: null,
    latestStable: facts.latestStable,
    libyear: null,
    behind: null,
    deprecated: facts.deprecated !== null,
    deprecationMessage: facts.deprecated,
    yanked: false,
    endOfLife: facts.deprecated !== null,
    endOfLifeReason:
      facts.deprecated !== null ? `the package is deprecated: ${facts.deprecated}` : null,
    unlisted: false,
  };
  if (used.version === null || used.version.trim() === '') return unknown;

  let fact: VersionFact | undefined;
  let compared: string;
  if (used.resolution === 'declared' && versioning.isRange(used.version)) {
    fact = resolveRange(facts.versions, used.version, versioning);
    if (!fact) return unknown;
    compared = fact.version;
  } else {
    fact = findVersion(facts.versions, used.version, versioning);
    compared = fact?.version ?? used.version;
    if (!fact && !versioning.isValid(used.version)) return unknown;
  }

  const latest = facts.latestStable;
  const latestFact = latest ? findVersion(facts.versions, latest, versioning) : undefined;
  let libyear: number | null = null;
  let behind: Behind | null = null;
  if (latest) {
    behind = versionsBehind(facts.versions, compared, latest, versioning);
    if (safeCompare(versioning, compared, latest) >= 0) libyear = 0;
    else if (fact?.publishedAt && latestFact?.publishedAt) {
      const years = (latestFact.publishedAt.getTime() - fact.publishedAt.getTime()) / YEAR_MS;
      libyear = Math.max(0, Math.round(years * 1000) / 1000);
    }
  }
  const deprecationMessage = fact?.deprecated ?? facts.deprecated;
  const eol = endOfLifeReason(facts, compared, options);
  return {
    state: 'measured',
    comparedVersion: compared,
    latestStable: latest,
    libyear,
    behind,
    deprecated: deprecationMessage !== null,
    deprecationMessage,
    yanked: fact?.yanked ?? false,
    endOfLife: eol !== null,
    endOfLifeReason: eol,
    unlisted: !fact && facts.versions.length > 0,
  };
}

export interface RepositoryDriftTotals {
  dependencyCount: number;
  measuredCount: number;
  pendingCount: number;
  outdatedCount: number;
  libyearTotal: number;
  majorBehind: number;
  minorBehind: number;
  patchBehind: number;
  deprecatedCount: number;
  yankedCount: number;
  endOfLifeCount: number;
}

/** Sums dependency drifts into the repository's totals (pending = metadata not fetched yet). */
export function totalDrift(
  drifts: readonly (DependencyDrift | 'pending' | 'not_in_registry')[],
): RepositoryDriftTotals {
  const totals: RepositoryDriftTotals = {
    dependencyCount: drifts.length,
    measuredCount: 0,
    pendingCount: 0,
    outdatedCount: 0,
    libyearTotal: 0,
    majorBehind: 0,
    minorBehind: 0,
    patchBehind: 0,
    deprecatedCount: 0,
    yankedCount: 0,
    endOfLifeCount: 0,
  };
  for (const drift of drifts) {
    if (drift === 'pending') {
      totals.pendingCount++;
      continue;
    }
    if (drift === 'not_in_registry') continue;
    if (drift.deprecated) totals.deprecatedCount++;
    if (drift.yanked) totals.yankedCount++;
    if (drift.endOfLife) totals.endOfLifeCount++;
    if (drift.state !== 'measured') continue;
    totals.measuredCount++;
    totals.libyearTotal += drift.libyear ?? 0;
    if (drift.behind) {
      totals.majorBehind += drift.behind.major;
      totals.minorBehind += drift.behind.minor;
      totals.patchBehind += drift.behind.patch;
      if (drift.behind.versions > 0) totals.outdatedCount++;
    }
  }
  totals.libyearTotal = Math.round(totals.libyearTotal * 1000) / 1000;
  return totals;
}

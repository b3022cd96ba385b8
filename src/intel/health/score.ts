import type { DownloadCount } from '../../ecosystems/registry-types';
import { licenceFlag } from '../risk/licences';
import { DEFAULT_WEIGHTS, type ScoringWeights, SIGNAL_KEYS, type SignalKey } from './weights';

/**
 * Health signals and the 0–100 score (docs/package-intelligence.md#health). Each signal has a
 * value (what was observed), a sub-score from 0 to 1 (null when the source cannot tell), where
 * it came from and when. The score is the weighted mean of the known sub-scores: the weight of
 * a signal nobody can tell (no download counts on this registry, no install-script data) is
 * spread over the others rather than counted as zero.
 */

export interface HealthFacts {
  /** Where the registry facts come from, e.g. `npm registry`. */
  registrySource: string;
  /** When the registry facts were fetched. */
  observedAt: Date;
  lastReleaseAt: Date | null;
  releasesLastYear: number;
  cadenceDays: number | null;
  versionCount: number;
  /** Current maintainers; null when the registry does not tell. */
  maintainers: string[] | null;
  /** Maintainers added on the newest release (versus the one before), when recorded. */
  latestMaintainerChange: { version: string; added: string[]; removed: string[] } | null;
  packageDeprecated: string | null;
  latestStableDeprecated: string | null;
  /** Known advisories of the package; null when the advisory database is absent. */
  vulnerabilities: { known: number; affectingLatest: number; observedAt: Date } | null;
  licence: string | null;
  repositoryUrl: string | null;
  /** Install-time scripts of the newest stable version; null when the ecosystem has none to tell. */
  installScripts: string[] | null;
  downloads: DownloadCount | null;
}

export interface HealthSignal {
  key: SignalKey;
  value: Record<string, unknown>;
  /** 0 (bad) to 1 (good); null when unknown. */
  score: number | null;
  source: string;
  observedAtUtc: string;
  detail: string;
}

export interface ScoredSignal extends HealthSignal {
  weight: number;
  /** Points this signal adds to the 0–100 score (after redistributing unknown signals' weight). */
  points: number | null;
}

export interface HealthScore {
  score: number | null;
  signals: ScoredSignal[];
}

const DAY_MS = 24 * 3600 * 1000;
const clamp = (value: number) => Math.max(0, Math.min(1, value));
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Weekly-equivalent downloads (registries report different windows). */
function weeklyDownloads(downloads: DownloadCount): number | null {
  switch (downloads.period) {
    case 'last-day':
      return downloads.count * 7;
    case 'last-week':
      return downloads.count;
    case 'last-month':
      return (downloads.count * 7) / 30;
    case 'last-90-days':
      return (downloads.count * 7) / 90;
    default:
      return null;
  }
}

export function computeSignals(facts: HealthFacts, now: Date): HealthSignal[] {
  const at = facts.observedAt.toISOString();
  const registry = facts.registrySource;
  return [
    recencySignal(facts, at, registry, now),
    cadenceSignal(facts, at, registry),
    maintainersSignal(facts, at, registry),
    deprecationSignal(facts, at, registry),
    vulnerabilitiesSignal(facts, at),
    licenceSignal(facts, at, registry),
    repositorySignal(facts, at, registry),
    installScriptsSignal(facts, at, registry),
    popularitySignal(facts, at, registry),
  ];
}

/** Maintenance recency: full marks within 90 days of the last release, none after two years. */
function recencySignal(facts: HealthFacts, at: string, registry: string, now: Date): HealthSignal {
  if (facts.lastReleaseAt) {
    const days = Math.max(0, Math.floor((now.getTime() - facts.lastReleaseAt.getTime()) / DAY_MS));
    return {
      key: 'maintenanceRecency',
      value: { lastReleaseAtUtc: facts.lastReleaseAt.toISOString(), daysSinceLastRelease: days },
      score: round3(days <= 90 ? 1 : clamp(1 - (days - 90) / (730 - 90))),
      source: registry,
      observedAtUtc: at,
      detail: `last release ${days} days ago`,
    };
  } else {
    return {
      key: 'maintenanceRecency',
      value: { lastReleaseAtUtc: null, daysSinceLastRelease: null },
      score: null,
      source: registry,
      observedAtUtc: at,
      detail: 'the registry gives no release times',
    };
  }
}

/** Release cadence: four or more releases in the last year is full marks. */
function cadenceSignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  return {
    key: 'releaseCadence',
    value: {
      releasesLastYear: facts.releasesLastYear,
      medianDaysBetweenReleases: facts.cadenceDays,
      versionCount: facts.versionCount,
    },
    score: facts.lastReleaseAt ? round3(clamp(facts.releasesLastYear / 4)) : null,
    source: registry,
    observedAtUtc: at,
    detail: `${facts.releasesLastYear} releases in the last 365 days`,
  };
}

/** Maintainers: more than one keeps a package alive; a newcomer on the newest release costs. */
function maintainersSignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  if (facts.maintainers && facts.maintainers.length > 0) {
    const count = facts.maintainers.length;
    const base = count >= 3 ? 1 : count === 2 ? 0.8 : 0.5;
    const added = facts.latestMaintainerChange?.added ?? [];
    return {
      key: 'maintainers',
      value: {
        count,
        maintainers: facts.maintainers.slice(0, 50),
        addedOnLatestRelease: added,
        removedOnLatestRelease: facts.latestMaintainerChange?.removed ?? [],
      },
      score: round3(clamp(base - (added.length > 0 ? 0.3 : 0))),
      source: registry,
      observedAtUtc: at,
      detail:
        added.length > 0
          ? `${count} maintainers; ${added.join(', ')} added on ${facts.latestMaintainerChange?.version}`
          : `${count} maintainer${count === 1 ? '' : 's'}`,
    };
  } else {
    return {
      key: 'maintainers',
      value: { count: null },
      score: null,
      source: registry,
      observedAtUtc: at,
      detail: 'the registry does not list maintainers',
    };
  }
}

function deprecationSignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  const deprecation = facts.packageDeprecated ?? facts.latestStableDeprecated;
  return {
    key: 'deprecation',
    value: {
      packageDeprecated: facts.packageDeprecated,
      latestStableDeprecated: facts.latestStableDeprecated,
    },
    score: deprecation ? 0 : 1,
    source: registry,
    observedAtUtc: at,
    detail: deprecation ? `deprecated: ${deprecation}` : 'not deprecated',
  };
}

function vulnerabilitiesSignal(facts: HealthFacts, at: string): HealthSignal {
  if (facts.vulnerabilities) {
    const { known, affectingLatest } = facts.vulnerabilities;
    return {
      key: 'vulnerabilities',
      value: { known, affectingLatest },
      score: affectingLatest > 0 ? 0 : round3(known === 0 ? 1 : Math.max(0.6, 1 - 0.05 * known)),
      source: 'OSV advisories',
      observedAtUtc: facts.vulnerabilities.observedAt.toISOString(),
      detail:
        affectingLatest > 0
          ? `${affectingLatest} of ${known} known advisories affect the newest release`
          : `${known} known advisories, none affecting the newest release`,
    };
  } else {
    return {
      key: 'vulnerabilities',
      value: { known: null, affectingLatest: null },
      score: null,
      source: 'OSV advisories',
      observedAtUtc: at,
      detail: 'no advisory database is loaded',
    };
  }
}

function licenceSignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  const flag = licenceFlag(facts.licence);
  return {
    key: 'licence',
    value: { licence: facts.licence, flag },
    score: facts.licence === null ? 0 : flag === null ? 1 : flag === 'strong-copyleft' ? 0.7 : 0.3,
    source: registry,
    observedAtUtc: at,
    detail:
      facts.licence === null
        ? 'no licence declared'
        : flag
          ? `${facts.licence} (${flag})`
          : facts.licence,
  };
}

function repositorySignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  return {
    key: 'repository',
    value: { repositoryUrl: facts.repositoryUrl },
    score: facts.repositoryUrl ? 1 : 0,
    source: registry,
    observedAtUtc: at,
    detail: facts.repositoryUrl
      ? `source at ${facts.repositoryUrl}`
      : 'no source repository linked',
  };
}

function installScriptsSignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  return {
    key: 'installScripts',
    value: { installScripts: facts.installScripts },
    score: facts.installScripts === null ? null : facts.installScripts.length > 0 ? 0 : 1,
    source: registry,
    observedAtUtc: at,
    detail:
      facts.installScripts === null
        ? 'the ecosystem does not run install scripts from the registry metadata'
        : facts.installScripts.length > 0
          ? `runs ${facts.installScripts.join(', ')} on install`
          : 'no install scripts',
  };
}

/** Popularity on a log scale: a million weekly downloads (or 100 million in total) is full marks. */
function popularitySignal(facts: HealthFacts, at: string, registry: string): HealthSignal {
  let popularity: number | null = null;
  if (facts.downloads) {
    const weekly = weeklyDownloads(facts.downloads);
    popularity =
      weekly !== null
        ? clamp(Math.log10(weekly + 1) / 6)
        : clamp(Math.log10(facts.downloads.count + 1) / 8);
  }
  return {
    key: 'popularity',
    value: facts.downloads
      ? { downloads: facts.downloads.count, period: facts.downloads.period }
      : { downloads: null },
    score: popularity === null ? null : round3(popularity),
    source: registry,
    observedAtUtc: at,
    detail: facts.downloads
      ? `${facts.downloads.count} downloads (${facts.downloads.period})`
      : 'the registry reports no download counts',
  };
}

/** The weighted score; signals are kept in SIGNAL_KEYS order whatever order they arrive in. */
export function scoreSignals(
  signals: readonly HealthSignal[],
  weights: ScoringWeights = DEFAULT_WEIGHTS,
): HealthScore {
  const byKey = new Map(signals.map((signal) => [signal.key, signal]));
  const ordered = SIGNAL_KEYS.flatMap((key) => {
    const signal = byKey.get(key);
    return signal ? [signal] : [];
  });
  const knownWeight = ordered.reduce(
    (total, signal) => total + (signal.score === null ? 0 : weights[signal.key]),
    0,
  );
  const scored = ordered.map((signal) => {
    const weight = weights[signal.key];
    const points =
      signal.score === null || knownWeight === 0
        ? null
        : Math.round(((signal.score * weight * 100) / knownWeight) * 100) / 100;
    return { ...signal, weight, points };
  });
  if (knownWeight === 0) return { score: null, signals: scored };
  const total = scored.reduce((sum, signal) => sum + (signal.points ?? 0), 0);
  return { score: Math.round(Math.max(0, Math.min(100, total))), signals: scored };
}

import type { Ecosystem } from '../../ecosystems/types';

/**
 * The normalised advisory model (docs/vulnerabilities-matching.md). `parse.ts` turns one OSV JSON
 * record (osv.dev, GitHub advisory database, PyPA, Go vulnerability database, RustSec) into an
 * `Advisory`; `aliases.ts` joins advisories that name each other into one `Vulnerability`;
 * `match.ts` matches dependencies against them. Everything here is plain data (JSON-serialisable),
 * so the advisory store can keep it as it is.
 */

/** Qualitative rating. CVSS "None" (score 0.0) is represented as `null`, not as a rating. */
export type SeverityRating = 'low' | 'medium' | 'high' | 'critical';

export const SEVERITY_RATINGS: readonly SeverityRating[] = ['low', 'medium', 'high', 'critical'];

export type CvssVersion = '3.0' | '3.1' | '4.0';

/** One `severity[]` entry of the record. */
export interface CvssScore {
  /** OSV type as written: `CVSS_V3`, `CVSS_V4` (or `CVSS_V2`, kept but not scored). */
  type: string;
  /** The vector string as written. */
  vector: string;
  /** CVSS version parsed from the vector, null when the vector is not a scorable v3.x/v4.0 one. */
  version: CvssVersion | null;
  /** Base score 0.0-10.0, null when the vector could not be scored. */
  score: number | null;
  rating: SeverityRating | null;
}

/** Where the effective severity came from. */
/** `malicious`: a malicious-package group, critical by rule whatever its members say. */
export type SeveritySource = 'cvss_v4' | 'cvss_v3' | 'database' | 'malicious' | 'none';

/**
 * A flaw in a package (`vulnerability`), or a package published to do harm (`malicious`: the
 * group has an OSV `MAL-` record of the OpenSSF malicious-packages database).
 */
export const FINDING_KINDS = ['vulnerability', 'malicious'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** OSV ids of the OpenSSF malicious-packages database. */
export const isMaliciousId = (id: string): boolean => id.startsWith('MAL-');

/** The advisory's effective severity (rule in severity.ts `effectiveSeverity`). */
export interface Severity {
  source: SeveritySource;
  /** CVSS base score from the vector, or the database's numeric score (`database`); else null. */
  score: number | null;
  rating: SeverityRating | null;
  /** The vector the score comes from, null otherwise. */
  vector: string | null;
}

export type RangeType = 'ECOSYSTEM' | 'SEMVER' | 'GIT';

export type RangeEventKind = 'introduced' | 'fixed' | 'last_affected' | 'limit';

export interface RangeEvent {
  kind: RangeEventKind;
  /** Version (or commit hash for GIT ranges); `introduced: "0"` means "from the beginning". */
  version: string;
}

export interface AffectedRange {
  type: RangeType;
  /** Repository URL of a GIT range, null otherwise. */
  repo: string | null;
  /** Events in record order (the matcher sorts them by the ecosystem ordering). */
  events: RangeEvent[];
}

export interface AffectedPackage {
  /** OSV ecosystem as written (`crates.io`, `Debian:12`, `npm`). */
  osvEcosystem: string;
  /** Driftwatch ecosystem when it is one we support, null otherwise: kept, never matched. */
  ecosystem: Ecosystem | null;
  /** Name as written in the record. */
  rawName: string;
  /** Name normalised by the ecosystem's `normaliseName` (as written when the ecosystem is unknown). */
  name: string;
  purl: string | null;
  ranges: AffectedRange[];
  /** Enumerated affected versions (always match, whatever the ranges say). */
  versions: string[];
}

export interface Reference {
  type: string;
  url: string;
}

export interface Advisory {
  id: string;
  /** ISO 8601 UTC (millisecond precision). */
  modified: string;
  published: string | null;
  /** Withdrawal time; a withdrawn advisory never matches. */
  withdrawn: string | null;
  /** Other ids of the same flaw (CVE, GHSA, PYSEC, GO, RUSTSEC, ...), without `id` itself. */
  aliases: string[];
  /** Ids of related but different flaws; they do not join vulnerabilities. */
  related: string[];
  summary: string | null;
  details: string | null;
  /** Every `severity[]` entry, scored where possible. */
  cvss: CvssScore[];
  /** `database_specific.severity` (GHSA LOW/MODERATE/HIGH/CRITICAL) as a rating, or null. */
  databaseSeverity: SeverityRating | null;
  /** The effective severity: CVSS v4, then CVSS v3, then the database rating/score (severity.ts). */
  severity: Severity;
  affected: AffectedPackage[];
  references: Reference[];
  /** Parts of the record that were dropped as invalid (the rest was kept). */
  warnings: string[];
}

/** A record that could not be used at all, with why. */
export interface RejectedRecord {
  /** Where it came from: file path (and `#line` for JSON Lines, `!entry` inside a zip). */
  source: string;
  /** The record's id when it had a readable one. */
  id: string | null;
  reasons: string[];
}

/**
 * A JSON document found among advisory files that is no OSV record at all (a JSON Schema, a
 * manifest, a package.json): skipped and counted apart, never reported as a rejected advisory.
 */
export interface NotAnAdvisory {
  source: string;
  reason: string;
}

export interface ParsedAdvisories {
  advisories: Advisory[];
  rejected: RejectedRecord[];
}

/**
 * One flaw: advisories whose ids and aliases name each other, joined (aliases.ts). `id` is the
 * canonical id; `ids` are the ids of the member records; `aliases` every other known id.
 */
export interface Vulnerability {
  id: string;
  /** Ids of the advisories in the group (sorted). */
  ids: string[];
  /** Every id and alias of the group except `id` (sorted). */
  aliases: string[];
  advisories: Advisory[];
  /** `malicious` when a live member is a MAL- record (docs/vulnerabilities-matching.md). */
  kind: FindingKind;
  /** Highest effective severity of the members; critical for a malicious package. */
  severity: Severity;
  /** True when every member is withdrawn. */
  withdrawn: boolean;
}

/** What the matcher is asked about: one dependency as an extractor reports it. */
export interface DependencyQuery {
  ecosystem: Ecosystem;
  /** Normalised name (extractors already normalise). */
  name: string;
  /** Exact version when `resolution` is `resolved`, the declared range text, or null. */
  version: string | null;
  resolution: 'resolved' | 'declared' | 'unpinned';
}

/**
 * `affected`: the exact version is vulnerable. `possibly_affected`: the dependency is a declared
 * range or unpinned, so the installed version is unknown; reported with the advisory's ranges.
 */
export type MatchStatus = 'affected' | 'possibly_affected';

export interface AdvisoryMatch {
  advisory: Advisory;
  /** The affected[] entry that matched. */
  affected: AffectedPackage;
  status: MatchStatus;
  /** Versions that fix it (`fixed` events of the matched ranges), ecosystem-sorted. */
  fixedVersions: string[];
}

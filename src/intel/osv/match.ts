import { compositeKey } from '../../core/composite-key';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { Ecosystem, Versioning } from '../../ecosystems/types';
import { semverOrdering } from './semver-order';
import type {
  Advisory,
  AdvisoryMatch,
  AffectedPackage,
  AffectedRange,
  DependencyQuery,
  RangeEvent,
} from './types';

/**
 * OSV range evaluation (https://ossf.github.io/osv-schema/#evaluation) and an index keyed by
 * (ecosystem, normalised name). A lookup touches only the advisories that name the package, so
 * the cost of a scan grows with its dependencies, not with the size of the advisory database.
 *
 * Rules (docs/vulnerabilities-matching.md):
 * - a version listed in `versions` is affected, whatever the ranges say;
 * - ECOSYSTEM ranges are ordered by the ecosystem's `versioning.compare`, SEMVER ranges by SemVer
 *   2.0 precedence; GIT ranges are commit ranges and count only through `versions`;
 * - events are sorted by that ordering (`introduced: "0"` first) and walked: introduced ≤ v opens,
 *   fixed ≤ v closes, last_affected < v closes; with `limit` events v must be below one of them;
 * - a range with a bound that is not a version in its ordering (a git hash in an ECOSYSTEM
 *   `fixed`, `"7.2.4, 6.11.4"`) cannot be evaluated and is skipped, recorded in `skippedRanges`;
 * - a version that is not valid in its ecosystem matches only through `versions`;
 * - withdrawn advisories and unknown ecosystems never match;
 * - declared ranges and unpinned dependencies are `possibly_affected`, never `affected`.
 */

interface CompiledRange {
  range: AffectedRange;
  ordering: Versioning;
  /** Non-limit events sorted by the ordering; `introduced: "0"` first. */
  events: RangeEvent[];
  limits: string[];
}

interface CompiledEntry {
  advisory: Advisory;
  affected: AffectedPackage;
  ecosystem: Ecosystem;
  versioning: Versioning;
  versions: ReadonlySet<string>;
  /**
   * The listed versions valid in the ecosystem, sorted by its ordering (for equal spellings);
   * sorted only once an entry is asked often (`spellingLookups`): a scan asks most entries about
   * one version, and n comparisons beat the n·log n of a sort (Go and PyPI records list hundreds).
   */
  sortedVersions: string[] | null;
  /** Lookups of a spelling that misses `versions` so far. */
  spellingLookups: number;
  ranges: CompiledRange[];
  /** Fixed versions of the evaluable ranges, sorted by the ecosystem ordering. */
  fixed: string[];
  /** False when nothing can be vulnerable (no evaluable range, no listed version). */
  anyVulnerable: boolean;
  /** Ranges that could not be evaluated. */
  skipped: SkippedRange[];
}

export interface SkippedRange {
  advisoryId: string;
  ecosystem: string;
  name: string;
  reason: string;
}

function orderingFor(type: AffectedRange['type'], ecosystem: Ecosystem): Versioning {
  const versioning = getEcosystem(ecosystem).versioning;
  // Go versions are SemVer already (with an optional `v`): keep Go's own parser for both types.
  if (type === 'SEMVER' && ecosystem !== 'Go') return semverOrdering;
  return versioning;
}

/** Sorts events by the ordering; `introduced: "0"` sorts first, ties keep record order. */
function sortEvents(events: RangeEvent[], ordering: Versioning): RangeEvent[] {
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => {
      const aZero = a.event.kind === 'introduced' && a.event.version === '0';
      const bZero = b.event.kind === 'introduced' && b.event.version === '0';
      if (aZero || bZero) return aZero && bZero ? a.index - b.index : aZero ? -1 : 1;
      return ordering.compare(a.event.version, b.event.version) || a.index - b.index;
    })
    .map(({ event }) => event);
}

/**
 * `1` / `1.0` written as a bound where the ordering wants three parts (npm, SEMVER): read as
 * `1.0.0`, the way npm's own range parser reads `>=1.0`. Anything else is left as written.
 */
function padPartial(event: RangeEvent, ordering: Versioning): RangeEvent {
  if (ordering.isValid(event.version) || !/^\d+(\.\d+)?$/.test(event.version)) return event;
  if (event.kind === 'introduced' && event.version === '0') return event;
  const padded = event.version.includes('.') ? `${event.version}.0` : `${event.version}.0.0`;
  return ordering.isValid(padded) ? { kind: event.kind, version: padded } : event;
}

const compiledCache = new WeakMap<AffectedPackage, CompiledEntry | null>();

function compile(advisory: Advisory, affected: AffectedPackage): CompiledEntry | null {
  const cached = compiledCache.get(affected);
  if (cached !== undefined && cached?.advisory === advisory) return cached;
  if (affected.ecosystem === null) return null;
  const ecosystem = affected.ecosystem;
  const versioning = getEcosystem(ecosystem).versioning;
  const ranges: CompiledRange[] = [];
  const fixed: string[] = [];
  const skipped: SkippedRange[] = [];
  for (const range of affected.ranges) {
    if (range.type === 'GIT') continue;
    const ordering = orderingFor(range.type, ecosystem);
    const rangeEvents = range.events.map((e) => padPartial(e, ordering));
    const bad = rangeEvents.find(
      (e) => !(e.kind === 'introduced' && e.version === '0') && !ordering.isValid(e.version),
    );
    if (bad) {
      skipped.push({
        advisoryId: advisory.id,
        ecosystem,
        name: affected.name,
        reason: `${range.type} range skipped: ${bad.kind} "${bad.version}" is not a ${range.type === 'SEMVER' ? 'SemVer' : ecosystem} version`,
      });
      continue;
    }
    const events = sortEvents(
      rangeEvents.filter((e) => e.kind !== 'limit'),
      ordering,
    );
    const limits = rangeEvents.filter((e) => e.kind === 'limit').map((e) => e.version);
    ranges.push({ range, ordering, events, limits });
    for (const e of events) if (e.kind === 'fixed') fixed.push(e.version);
  }
  const entry: CompiledEntry = {
    advisory,
    affected,
    ecosystem,
    versioning,
    versions: new Set(affected.versions),
    sortedVersions: null,
    spellingLookups: 0,
    ranges,
    fixed: [...new Set(fixed)].sort(versioning.compare),
    anyVulnerable: affected.versions.length > 0 || ranges.some((r) => opensAnything(r)),
    skipped,
  };
  compiledCache.set(affected, entry);
  return entry;
}

/** A range opens something unless every introduced is closed at the same version. */
function opensAnything(compiled: CompiledRange): boolean {
  return compiled.events.some((e) => e.kind === 'introduced');
}

/** OSV evaluation of one sorted range for a valid version. */
function inRange(version: string, compiled: CompiledRange): boolean {
  const { ordering } = compiled;
  if (
    compiled.limits.length > 0 &&
    !compiled.limits.some((l) => ordering.compare(version, l) < 0)
  ) {
    return false;
  }
  let vulnerable = false;
  for (const event of compiled.events) {
    if (event.kind === 'introduced') {
      if (event.version === '0' || ordering.compare(version, event.version) >= 0) vulnerable = true;
    } else if (event.kind === 'fixed') {
      if (ordering.compare(version, event.version) >= 0) vulnerable = false;
    } else if (event.kind === 'last_affected') {
      if (ordering.compare(version, event.version) > 0) vulnerable = false;
    }
  }
  return vulnerable;
}

/**
 * Listed as written, or as an equal version in the ecosystem's ordering: go.mod writes `v1.2.3`
 * where OSV writes `1.2.3`, PEP 440 has `1.0` == `1.0.0`, NuGet `1.0.0` == `1.0.0.0`.
 */
/** Lookups answered by a linear pass before an entry's versions are sorted once. */
const SORT_AFTER_LOOKUPS = 2;

function listed(entry: CompiledEntry, version: string): boolean {
  if (entry.versions.has(version)) return true;
  if (entry.versions.size === 0 || !entry.versioning.isValid(version)) return false;
  if (entry.sortedVersions === null && ++entry.spellingLookups <= SORT_AFTER_LOOKUPS) {
    const { versioning } = entry;
    for (const listedVersion of entry.versions) {
      if (versioning.isValid(listedVersion) && versioning.compare(listedVersion, version) === 0) {
        return true;
      }
    }
    return false;
  }
  entry.sortedVersions ??= [...entry.versions]
    .filter((v) => entry.versioning.isValid(v))
    .sort(entry.versioning.compare);
  const sorted = entry.sortedVersions;
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const order = entry.versioning.compare(sorted[mid]!, version);
    if (order === 0) return true;
    if (order < 0) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

function exactlyAffected(entry: CompiledEntry, version: string): boolean {
  if (listed(entry, version)) return true;
  for (const compiled of entry.ranges) {
    if (!compiled.ordering.isValid(version)) continue;
    if (inRange(version, compiled)) return true;
  }
  return false;
}

/**
 * True when `version` (an exact version) is affected by one `affected[]` entry of an advisory.
 * Withdrawn advisories and unknown ecosystems are never affected.
 */
export function affectsVersion(
  advisory: Advisory,
  affected: AffectedPackage,
  version: string,
): boolean {
  if (advisory.withdrawn) return false;
  const entry = compile(advisory, affected);
  return entry !== null && exactlyAffected(entry, version);
}

// Version-looking tokens of a declared spec (`^4.17.0`, `>=1.2,<2`, `~> 5.2`, `[1.0,2.0)`).
const VERSION_TOKEN = /v?\d+(?:\.[0-9A-Za-z-]+)*(?:[-+][0-9A-Za-z.-]+)?/g;
// Alternatives that reach below any version they name: open Maven lower bounds, a bare wildcard
// (`*`, `x`), empty. A trailing wildcard after a version prefix (`==6.0.*`) starts at the prefix.
const OPEN_BELOW = /\(\s*,|\[\s*,|(^|[^\d.])[*xX](?![\w.])|^\s*$/;
// A lower bound: an operator that starts a range at a version, or a bare version (an exact pin,
// an npm hyphen range, a Maven soft requirement).
const LOWER_BOUND = /(>=|>|\^|~>|~=|~|===|==|=|\[)\s*v?\d|^\s*v?\d/;

/**
 * For a declared range: true when it provably avoids every vulnerable version — each `||`
 * alternative has a lower bound, its lowest version satisfies it, that version is at or above
 * every range's upper bound, and no listed version satisfies it. Anything else stays "possibly
 * affected".
 */
function declaredRangeClear(entry: CompiledEntry, spec: string): boolean {
  // npm/Composer unions; a Maven union (`[1,2),[3,)`) is not split and so never proven clear.
  const alternatives = spec.split(/\|\|?/);
  if (/[)\]]\s*,\s*[([]/.test(spec)) return false;
  return alternatives.every((alternative) => alternativeClear(entry, alternative.trim()));
}

function alternativeClear(entry: CompiledEntry, spec: string): boolean {
  if (OPEN_BELOW.test(spec) || !LOWER_BOUND.test(spec)) return false;
  const { versioning } = entry;
  const tokens = (spec.match(VERSION_TOKEN) ?? []).filter((t) => versioning.isValid(t));
  if (tokens.length === 0) return false;
  const floor = tokens.sort(versioning.compare)[0]!;
  try {
    if (!versioning.satisfies(floor, spec)) return false;
  } catch {
    return false;
  }
  for (const compiled of entry.ranges) {
    const last = compiled.events.at(-1);
    if (!last || last.kind === 'introduced') return false;
    if (last.kind === 'fixed' && compiled.ordering.compare(floor, last.version) < 0) return false;
    if (last.kind === 'last_affected' && compiled.ordering.compare(floor, last.version) <= 0) {
      return false;
    }
  }
  for (const version of entry.versions) {
    try {
      if (versioning.satisfies(version, spec)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function matchEntry(entry: CompiledEntry, query: DependencyQuery): AdvisoryMatch | null {
  if (entry.advisory.withdrawn || !entry.anyVulnerable) return null;
  const base = { advisory: entry.advisory, affected: entry.affected, fixedVersions: entry.fixed };
  if (query.resolution === 'resolved' && query.version !== null) {
    return exactlyAffected(entry, query.version) ? { ...base, status: 'affected' } : null;
  }
  if (query.resolution === 'declared' && query.version !== null) {
    if (declaredRangeClear(entry, query.version)) return null;
  }
  return { ...base, status: 'possibly_affected' };
}

function key(ecosystem: Ecosystem, name: string): string {
  return compositeKey(ecosystem, name);
}

/** Advisories indexed by (ecosystem, normalised name). Build once, query per dependency. */
export class AdvisoryIndex {
  private readonly byPackage = new Map<string, CompiledEntry[]>();
  /** Ranges that could not be evaluated (bad bounds), for reporting. */
  readonly skippedRanges: SkippedRange[] = [];
  /** Number of advisories indexed (withdrawn ones included; they never match). */
  size = 0;

  constructor(advisories: Iterable<Advisory> = []) {
    for (const advisory of advisories) this.add(advisory);
  }

  add(advisory: Advisory): void {
    this.size++;
    for (const affected of advisory.affected) {
      const entry = compile(advisory, affected);
      if (!entry) continue;
      this.skippedRanges.push(...entry.skipped);
      const k = key(entry.ecosystem, affected.name);
      const list = this.byPackage.get(k);
      if (list) list.push(entry);
      else this.byPackage.set(k, [entry]);
    }
  }

  /** True when some advisory names the package (withdrawn ones included). */
  has(ecosystem: Ecosystem, name: string): boolean {
    return this.byPackage.has(key(ecosystem, name));
  }

  /** Matches one dependency; one result per matching `affected[]` entry. */
  match(query: DependencyQuery): AdvisoryMatch[] {
    const entries = this.byPackage.get(key(query.ecosystem, query.name));
    if (!entries) return [];
    const out: AdvisoryMatch[] = [];
    for (const entry of entries) {
      const match = matchEntry(entry, query);
      if (match) out.push(match);
    }
    return out;
  }
}

/**
 * True when an affected entry has a version range open from `0` with no upper bound: it names
 * every version there is (malicious-package records say so for a package published to do harm).
 */
export function namesEveryVersion(affected: AffectedPackage): boolean {
  return affected.ranges.some(
    (range) =>
      range.type !== 'GIT' &&
      range.events.some((e) => e.kind === 'introduced' && e.version === '0') &&
      range.events.every((e) => e.kind === 'introduced'),
  );
}

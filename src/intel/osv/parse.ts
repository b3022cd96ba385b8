import { compositeKey } from '../../core/composite-key';
import { isObject } from '../../core/json-values';
import { findEcosystem } from '../../ecosystems/ecosystem-list';
import {
  databaseScore,
  effectiveSeverity,
  ratingFromDatabase,
  scoreSeverityEntry,
} from './severity';
import type {
  Advisory,
  AffectedPackage,
  AffectedRange,
  CvssScore,
  NotAnAdvisory,
  ParsedAdvisories,
  RangeEvent,
  RangeEventKind,
  RangeType,
  Reference,
  RejectedRecord,
} from './types';

/**
 * OSV JSON → normalised `Advisory` (OSV schema 1.x, https://ossf.github.io/osv-schema/).
 * Every record is hostile input: wrong types, absurd sizes, control characters and unknown
 * values never throw. A record without a usable `id` or `modified` is rejected with its reasons;
 * a bad part of an otherwise good record (one range, one alias, one reference) is dropped and
 * named in `warnings`, so one upstream typo does not hide the rest of the advisory.
 */

/** Size limits, far above anything real (largest real `versions[]` lists are a few thousand). */
export const LIMITS = {
  idLength: 256,
  versionLength: 256,
  nameLength: 1024,
  summaryLength: 16 * 1024,
  detailsLength: 1024 * 1024,
  urlLength: 8 * 1024,
  aliases: 1024,
  affected: 10_000,
  ranges: 1024,
  events: 10_000,
  versions: 200_000,
  references: 10_000,
  severity: 64,
  /** One JSON line/record; larger records are rejected unread. */
  recordBytes: 16 * 1024 * 1024,
} as const;

const ID = /^[A-Za-z0-9][A-Za-z0-9._:+-]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const RANGE_TYPES: ReadonlySet<string> = new Set(['ECOSYSTEM', 'SEMVER', 'GIT']);
const EVENT_KINDS: readonly RangeEventKind[] = ['introduced', 'fixed', 'last_affected', 'limit'];

type Json = Record<string, unknown>;

/** Own property only: a record's `constructor` or `__proto__` key is data, never inherited. */
function field(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= LIMITS.idLength && ID.test(value);
}

function isVersionText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= LIMITS.versionLength &&
    !CONTROL.test(value) &&
    value.trim() === value
  );
}

/** RFC 3339 timestamp → ISO 8601 UTC, or null. */
export function parseTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value)) {
    return null;
  }
  const time = Date.parse(value.replace(' ', 'T'));
  if (Number.isNaN(time)) return null;
  return new Date(time).toISOString();
}

function optionalText(record: Json, key: string, max: number, warnings: string[]): string | null {
  const value = field(record, key);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    warnings.push(`${key}: not a string, dropped`);
    return null;
  }
  if (value.length > max) {
    warnings.push(`${key}: longer than ${max} characters, dropped`);
    return null;
  }
  return value;
}

function idList(record: Json, key: string, selfId: string, warnings: string[]): string[] {
  const value = field(record, key);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push(`${key}: not an array, dropped`);
    return [];
  }
  if (value.length > LIMITS.aliases) {
    warnings.push(`${key}: more than ${LIMITS.aliases} entries, dropped`);
    return [];
  }
  const ids = new Set<string>();
  value.forEach((entry, index) => {
    if (!isId(entry)) warnings.push(`${key}[${index}]: not a valid id, dropped`);
    else if (entry !== selfId) ids.add(entry);
  });
  return [...ids];
}

function parseEvents(raw: unknown, path: string, warnings: string[]): RangeEvent[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    warnings.push(`${path}.events: missing or empty, range dropped`);
    return null;
  }
  if (raw.length > LIMITS.events) {
    warnings.push(`${path}.events: more than ${LIMITS.events} events, range dropped`);
    return null;
  }
  const events: RangeEvent[] = [];
  for (let i = 0; i < raw.length; i++) {
    const event = raw[i];
    const kinds = isObject(event) ? EVENT_KINDS.filter((k) => Object.hasOwn(event, k)) : [];
    const kind = kinds[0];
    if (!isObject(event) || kinds.length !== 1 || kind === undefined) {
      warnings.push(`${path}.events[${i}]: must have exactly one of ${EVENT_KINDS.join('/')}`);
      return null;
    }
    const version = event[kind];
    if (version === '' && kind !== 'introduced') {
      // GHSA writes `fixed: ""` for "no fix yet": an absent bound, the range stays open (as npm
      // reads `<` with nothing after it).
      warnings.push(`${path}.events[${i}].${kind}: empty, treated as no ${kind} bound`);
      continue;
    }
    if (!isVersionText(version)) {
      warnings.push(`${path}.events[${i}].${kind}: not a valid version, range dropped`);
      return null;
    }
    events.push({ kind, version });
  }
  if (!events.some((e) => e.kind === 'introduced')) {
    warnings.push(`${path}: no introduced event, range dropped`);
    return null;
  }
  return events;
}

function parseRange(raw: unknown, path: string, warnings: string[]): AffectedRange | null {
  if (!isObject(raw)) {
    warnings.push(`${path}: not an object, dropped`);
    return null;
  }
  const type = field(raw, 'type');
  if (typeof type !== 'string' || !RANGE_TYPES.has(type)) {
    warnings.push(
      `${path}.type: unknown range type ${JSON.stringify(type)?.slice(0, 40)}, dropped`,
    );
    return null;
  }
  const events = parseEvents(field(raw, 'events'), path, warnings);
  if (!events) return null;
  const repo = field(raw, 'repo');
  const repoText =
    typeof repo === 'string' && repo.length <= LIMITS.urlLength && !CONTROL.test(repo)
      ? repo
      : null;
  return { type: type as RangeType, repo: repoText, events };
}

function parseAffected(raw: unknown, path: string, warnings: string[]): AffectedPackage | null {
  if (!isObject(raw)) {
    warnings.push(`${path}: not an object, dropped`);
    return null;
  }
  const pkg = field(raw, 'package');
  const osvEcosystem = isObject(pkg) ? field(pkg, 'ecosystem') : undefined;
  const rawName = isObject(pkg) ? field(pkg, 'name') : undefined;
  if (
    typeof osvEcosystem !== 'string' ||
    osvEcosystem.length === 0 ||
    osvEcosystem.length > 128 ||
    CONTROL.test(osvEcosystem) ||
    typeof rawName !== 'string' ||
    rawName.trim().length === 0 ||
    rawName.length > LIMITS.nameLength ||
    CONTROL.test(rawName)
  ) {
    warnings.push(`${path}.package: missing or invalid ecosystem/name, dropped`);
    return null;
  }
  const purl = isObject(pkg) ? field(pkg, 'purl') : undefined;
  const module = findEcosystem(osvEcosystem);
  let name = rawName;
  if (module) {
    try {
      name = module.normaliseName(rawName);
    } catch {
      warnings.push(`${path}.package.name: cannot be normalised, dropped`);
      return null;
    }
  }

  const ranges: AffectedRange[] = [];
  const rawRanges = field(raw, 'ranges');
  if (rawRanges !== undefined && rawRanges !== null) {
    if (!Array.isArray(rawRanges) || rawRanges.length > LIMITS.ranges) {
      warnings.push(`${path}.ranges: not an array of at most ${LIMITS.ranges}, dropped`);
    } else {
      rawRanges.forEach((r, i) => {
        const range = parseRange(r, `${path}.ranges[${i}]`, warnings);
        if (range) ranges.push(range);
      });
    }
  }

  const versions: string[] = [];
  const rawVersions = field(raw, 'versions');
  if (rawVersions !== undefined && rawVersions !== null) {
    if (!Array.isArray(rawVersions) || rawVersions.length > LIMITS.versions) {
      warnings.push(`${path}.versions: not an array of at most ${LIMITS.versions}, dropped`);
    } else {
      const seen = new Set<string>();
      rawVersions.forEach((v, i) => {
        if (!isVersionText(v))
          warnings.push(`${path}.versions[${i}]: not a valid version, dropped`);
        else if (!seen.has(v)) {
          seen.add(v);
          versions.push(v);
        }
      });
    }
  }

  return {
    osvEcosystem,
    ecosystem: module?.id ?? null,
    rawName,
    name,
    purl: typeof purl === 'string' && purl.length <= LIMITS.urlLength ? purl : null,
    ranges,
    versions,
  };
}

function parseReferences(record: Json, warnings: string[]): Reference[] {
  const raw = field(record, 'references');
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > LIMITS.references) {
    warnings.push(`references: not an array of at most ${LIMITS.references}, dropped`);
    return [];
  }
  const references: Reference[] = [];
  raw.forEach((entry, i) => {
    const type = isObject(entry) ? field(entry, 'type') : undefined;
    const url = isObject(entry) ? field(entry, 'url') : undefined;
    if (
      typeof type !== 'string' ||
      type.length > 64 ||
      typeof url !== 'string' ||
      url.length > LIMITS.urlLength ||
      CONTROL.test(url)
    ) {
      warnings.push(`references[${i}]: invalid, dropped`);
      return;
    }
    references.push({ type, url });
  });
  return references;
}

function parseSeverityList(record: Json, warnings: string[]): CvssScore[] {
  const raw = field(record, 'severity');
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > LIMITS.severity) {
    warnings.push('severity: not an array of at most 64, dropped');
    return [];
  }
  const scores: CvssScore[] = [];
  raw.forEach((entry, i) => {
    const type = isObject(entry) ? field(entry, 'type') : undefined;
    const score = isObject(entry) ? field(entry, 'score') : undefined;
    if (typeof type !== 'string' || type.length > 32 || typeof score !== 'string') {
      warnings.push(`severity[${i}]: invalid, dropped`);
      return;
    }
    const scored = scoreSeverityEntry(type, score.slice(0, 512));
    if ((type === 'CVSS_V3' || type === 'CVSS_V4') && scored.score === null) {
      warnings.push(`severity[${i}]: ${type} vector cannot be scored`);
    }
    scores.push(scored);
  });
  return scores;
}

export type RecordResult =
  | { ok: true; advisory: Advisory }
  | { ok: false; id: string | null; reasons: string[] };

/** One parsed JSON value (one OSV record) → advisory, or the reasons it was rejected. */
export function parseOsvRecord(value: unknown): RecordResult {
  if (!isObject(value)) return { ok: false, id: null, reasons: ['record is not a JSON object'] };
  const reasons: string[] = [];
  const rawId = field(value, 'id');
  const id = isId(rawId) ? rawId : null;
  if (!id) reasons.push('id: missing or not a valid OSV id');
  const modified = parseTimestamp(field(value, 'modified'));
  if (!modified) reasons.push('modified: missing or not an RFC 3339 timestamp');
  const rawAffected = field(value, 'affected');
  if (
    rawAffected !== undefined &&
    rawAffected !== null &&
    (!Array.isArray(rawAffected) || rawAffected.length > LIMITS.affected)
  ) {
    reasons.push(`affected: not an array of at most ${LIMITS.affected}`);
  }
  if (!id || !modified || reasons.length > 0) {
    return {
      ok: false,
      id: id ?? (typeof rawId === 'string' ? rawId.slice(0, 80) : null),
      reasons,
    };
  }

  const warnings: string[] = [];
  const published = field(value, 'published');
  const withdrawn = field(value, 'withdrawn');
  const publishedAt = published === undefined ? null : parseTimestamp(published);
  if (published !== undefined && !publishedAt) warnings.push('published: not a timestamp, dropped');
  let withdrawnAt =
    withdrawn === undefined || withdrawn === null ? null : parseTimestamp(withdrawn);
  if (withdrawn !== undefined && withdrawn !== null && !withdrawnAt) {
    // A withdrawal we cannot date is still a withdrawal: never match a record that says so.
    warnings.push('withdrawn: not a timestamp, treated as withdrawn at modified');
    withdrawnAt = modified;
  }

  const affected: AffectedPackage[] = [];
  if (Array.isArray(rawAffected)) {
    rawAffected.forEach((entry, i) => {
      const parsed = parseAffected(entry, `affected[${i}]`, warnings);
      if (parsed) affected.push(parsed);
    });
  }
  const cvss = parseSeverityList(value, warnings);
  const databaseSpecific = field(value, 'database_specific');
  const databaseSeverity = isObject(databaseSpecific)
    ? ratingFromDatabase(field(databaseSpecific, 'severity'))
    : null;

  return {
    ok: true,
    advisory: {
      id,
      modified,
      published: publishedAt,
      withdrawn: withdrawnAt,
      aliases: idList(value, 'aliases', id, warnings),
      related: idList(value, 'related', id, warnings),
      summary: optionalText(value, 'summary', LIMITS.summaryLength, warnings),
      details: optionalText(value, 'details', LIMITS.detailsLength, warnings),
      cvss,
      databaseSeverity,
      severity: effectiveSeverity(
        cvss,
        databaseSeverity,
        databaseScore(isObject(databaseSpecific) ? databaseSpecific : null),
      ),
      affected,
      references: parseReferences(value, warnings),
      warnings,
    },
  };
}

/** One JSON value taken out of an advisory file, with where it came from. */
export interface RawRecord {
  value: unknown;
  source: string;
}

/** Top-level fields of the OSV schema (https://ossf.github.io/osv-schema/). */
const OSV_FIELDS: readonly string[] = [
  'schema_version',
  'id',
  'modified',
  'published',
  'withdrawn',
  'aliases',
  'related',
  'upstream',
  'summary',
  'details',
  'severity',
  'affected',
  'references',
  'credits',
  'database_specific',
];

/**
 * Why a parsed JSON document is no OSV record, or null when it is one (valid or not). A record
 * has at least two OSV fields (every valid one has `id` and `modified`), so a malformed record
 * still counts as a record and is rejected with its reasons; a document declaring `$schema` (a
 * JSON Schema, or a file saying what it is) or with fewer OSV fields (package.json, a manifest)
 * is not one.
 */
export function notAnOsvRecord(value: unknown): string | null {
  if (!isObject(value)) return 'not an OSV record: not a JSON object';
  if (Object.hasOwn(value, '$schema')) return 'not an OSV record: declares a $schema';
  const known = OSV_FIELDS.filter((name) => Object.hasOwn(value, name)).length;
  return known >= 2 ? null : 'not an OSV record: too few OSV fields (id, modified, affected, ...)';
}

export interface SplitOsvText {
  records: RawRecord[];
  rejected: RejectedRecord[];
  /** Whole documents that are no OSV record (see `notAnOsvRecord`), skipped. */
  notAdvisories: NotAnAdvisory[];
}

/**
 * Splits the text of an advisory file into JSON values without validating them as OSV: one
 * record, a JSON array of records, an osv.dev API answer (`{"vulns": [...]}`), or JSON Lines
 * (a line that is not JSON is rejected on its own). A whole document that is no OSV record (nor
 * an array holding one) is skipped as not an advisory.
 */
export function splitOsvText(text: string, source: string): SplitOsvText {
  const records: RawRecord[] = [];
  const rejected: RejectedRecord[] = [];
  const notAdvisories: NotAnAdvisory[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trimStart();
  if (trimmed.length === 0) return { records, rejected, notAdvisories };
  if ((trimmed[0] === '[' || trimmed[0] === '{') && body.length <= LIMITS.recordBytes * 8) {
    let whole: unknown;
    let parsed = false;
    try {
      whole = JSON.parse(body);
      parsed = true;
    } catch {
      // Not one JSON document: JSON Lines below (or a broken file, reported per line).
    }
    if (parsed) {
      const list = Array.isArray(whole)
        ? whole
        : isObject(whole) && Array.isArray(field(whole, 'vulns')) && !Object.hasOwn(whole, 'id')
          ? (field(whole, 'vulns') as unknown[])
          : [whole];
      const single = list.length === 1 && !Array.isArray(whole);
      const reason =
        !Array.isArray(whole) && list[0] === whole
          ? notAnOsvRecord(whole)
          : list.length > 0 && list.every((value) => notAnOsvRecord(value) !== null)
            ? 'not an OSV record: a JSON array without one'
            : null;
      if (reason) {
        notAdvisories.push({ source, reason });
        return { records, rejected, notAdvisories };
      }
      list.forEach((value, i) => {
        records.push({ value, source: single ? source : `${source}[${i}]` });
      });
      return { records, rejected, notAdvisories };
    }
  }
  let start = 0;
  let line = 0;
  while (start < body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    line++;
    const raw = body.slice(start, end);
    start = end + 1;
    if (raw.trim().length === 0) continue;
    const where = `${source}#${line}`;
    if (raw.length > LIMITS.recordBytes) {
      rejected.push({ source: where, id: null, reasons: ['record larger than 16 MiB'] });
      continue;
    }
    try {
      records.push({ value: JSON.parse(raw), source: where });
    } catch (error) {
      rejected.push({
        source: where,
        id: null,
        reasons: [`not valid JSON: ${(error as Error).message.slice(0, 200)}`],
      });
    }
  }
  return { records, rejected, notAdvisories };
}

/** Validates raw records as OSV; keeps the good ones, rejects the rest with reasons. */
export function parseRawRecords(records: readonly RawRecord[], into: ParsedAdvisories): void {
  for (const { value, source } of records) {
    const result = parseOsvRecord(value);
    if (result.ok) into.advisories.push(result.advisory);
    else into.rejected.push({ source, id: result.id, reasons: result.reasons });
  }
}

/** The text of an advisory file (see `splitOsvText`) → advisories and rejected records. */
export function parseOsvText(text: string, source: string): ParsedAdvisories {
  const { records, rejected } = splitOsvText(text, source);
  const out: ParsedAdvisories = { advisories: [], rejected };
  parseRawRecords(records, out);
  return out;
}

/** What the prefilter needs from a raw record, read the same way `parseOsvRecord` reads it. */
export interface RecordKeys {
  id: string;
  modified: string;
  aliases: string[];
  /** `ecosystem\u0000normalised name` of every affected package of a supported ecosystem. */
  packages: string[];
}

/** Cheap read of id, modified, aliases and package keys; null when `parseOsvRecord` would reject. */
export function recordKeys(value: unknown): RecordKeys | null {
  if (!isObject(value)) return null;
  const id = field(value, 'id');
  const modified = parseTimestamp(field(value, 'modified'));
  if (!isId(id) || !modified) return null;
  const rawAliases = field(value, 'aliases');
  const aliases =
    Array.isArray(rawAliases) && rawAliases.length <= LIMITS.aliases
      ? rawAliases.filter((a): a is string => isId(a) && a !== id)
      : [];
  const packages: string[] = [];
  const affected = field(value, 'affected');
  if (Array.isArray(affected)) {
    for (const entry of affected) {
      const pkg = isObject(entry) ? field(entry, 'package') : undefined;
      const ecosystem = isObject(pkg) ? field(pkg, 'ecosystem') : undefined;
      const name = isObject(pkg) ? field(pkg, 'name') : undefined;
      if (
        typeof ecosystem !== 'string' ||
        typeof name !== 'string' ||
        name.length > LIMITS.nameLength
      ) {
        continue;
      }
      const module = findEcosystem(ecosystem);
      if (!module) continue;
      try {
        packages.push(compositeKey(module.id, module.normaliseName(name)));
      } catch {
        // The full parse drops this entry too.
      }
    }
  }
  return { id, modified, aliases, packages };
}

export type { RejectedRecord };

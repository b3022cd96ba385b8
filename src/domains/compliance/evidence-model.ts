import { createHash } from 'node:crypto';
import type { EvidenceKind } from './controls';
import type { Period } from './period';

/**
 * The evidence model (fact sheet C, "suggested model"): each item has a source, when it was
 * collected, until when it holds, a hash and a status; the control's per-period test result is
 * computed over the whole period (SOC 2 Type II), not sampled at one moment.
 */
export type EvidenceStatus = 'passing' | 'failing' | 'no_evidence' | 'informational';

/** A record an item was computed from: its kind, id and where the API shows it. */
export interface RecordRef {
  type: string;
  id: string;
  path: string;
  note: string;
}

export interface EvidenceItem {
  kind: EvidenceKind;
  title: string;
  /** The service's records the item was computed from. */
  source: string;
  collectedAtUtc: string;
  /** When the item should be collected again (a year, Drata's default renewal). */
  validUntilUtc: string;
  status: EvidenceStatus;
  summary: string;
  figures: Record<string, unknown>;
  /** Plain statements of missing evidence ("no scan of repository X in the period"). */
  gaps: string[];
  records: RecordRef[];
  /** All records cited; `records` holds the first MAX_RECORDS of them. */
  recordsTotal: number;
  /** SHA-256 of the item's canonical JSON without this field. */
  sha256: string;
}

export type ItemDraft = Omit<
  EvidenceItem,
  'collectedAtUtc' | 'validUntilUtc' | 'sha256' | 'recordsTotal'
>;

export const MAX_RECORDS = 1000;
export const DAY_MS = 86_400_000;
const RENEWAL_MS = 365 * DAY_MS;

/** What every builder needs: the period, the moment it is judged at, and repository names. */
export interface EvidenceContext {
  period: Period;
  /** The end of what can be judged: the period's end, or now when the period has not ended. */
  until: Date;
  collectedAt: Date;
  repositoryNames: Map<string, string>;
}

export function repositoryName(context: EvidenceContext, id: string): string {
  return context.repositoryNames.get(id) ?? `(deleted repository ${id})`;
}

/** Keys sorted at every level, so the same item always hashes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries);
  });
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function finishItem(draft: ItemDraft, context: EvidenceContext): EvidenceItem {
  const item = {
    ...draft,
    collectedAtUtc: context.collectedAt.toISOString(),
    validUntilUtc: new Date(context.collectedAt.getTime() + RENEWAL_MS).toISOString(),
    records: draft.records.slice(0, MAX_RECORDS),
    recordsTotal: draft.records.length,
  };
  return { ...item, sha256: sha256Hex(canonicalJson(item)) };
}

export const days = (ms: number): number => Math.round((ms / DAY_MS) * 100) / 100;

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 1
      ? (sorted[mid] ?? 0)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return Math.round(value * 100) / 100;
}

/** A share in [0, 1] to four places; null when there is nothing to divide by. */
export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

export const iso = (date: Date): string => date.toISOString();

export const inPeriod = (date: Date | null, period: { start: Date; end: Date }): boolean =>
  date !== null && date >= period.start && date < period.end;

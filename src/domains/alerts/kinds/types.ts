import type { Kysely } from 'kysely';
import type { TObject } from 'typebox';
import type { DB } from '../../../db/schema';
import type { SeverityRating } from '../../../intel/osv/types';
import type { EventName, EventPayloads } from '../../events';

/**
 * The extension point of alerting (docs/alerts.md#kinds): a kind names the event it listens to,
 * turns one event into candidates (one per subject it is about) and may judge a candidate
 * against the rule's own thresholds. The core (raise.ts) applies the common filters, the dedupe
 * window and the channels; a new module adds a kind by adding a file and one line in index.ts.
 */
export interface AlertCandidate {
  /** What the alert is about within its kind: the dedupe window is per (rule, subject). */
  subject: string;
  severity: SeverityRating | null;
  /** Repositories concerned (empty: none in particular); matched against the rule's filter. */
  repositoryIds: string[];
  packageId: string | null;
  ecosystem: string | null;
  title: string;
  /** The alert's payload, described by the kind's `payloadSchema`. */
  payload: Record<string, unknown>;
}

/** What a kind's matcher sees of a rule. */
export interface RuleView {
  minSeverity: SeverityRating | null;
  settings: Record<string, unknown>;
}

export interface AlertKind<E extends EventName = EventName> {
  kind: string;
  description: string;
  event: E;
  /** Kind-specific thresholds of a rule (`settings`); an empty object when there are none. */
  settingsSchema: TObject;
  /** The alert payload this kind produces (published in docs/events.md, checked by a test). */
  payloadSchema: TObject;
  /** The candidates one event gives, read in the tenant's transaction. */
  candidates: (db: Kysely<DB>, data: EventPayloads[E]) => Promise<AlertCandidate[]>;
  /** Whether a candidate meets the rule's severity and thresholds (default: severity only). */
  matches?: (rule: RuleView, candidate: AlertCandidate) => boolean;
  /** Extra checks of a rule's settings beyond the schema (field → messages). */
  checkSettings?: (settings: Record<string, unknown>) => Record<string, string[]>;
}

/** A kind with its event type erased, as the registry holds it. */
export interface RegisteredKind {
  kind: string;
  description: string;
  event: EventName;
  settingsSchema: TObject;
  payloadSchema: TObject;
  candidates: (db: Kysely<DB>, data: unknown) => Promise<AlertCandidate[]>;
  matches?: (rule: RuleView, candidate: AlertCandidate) => boolean;
  checkSettings?: (settings: Record<string, unknown>) => Record<string, string[]>;
}

export function defineKind<E extends EventName>(kind: AlertKind<E>): RegisteredKind {
  return kind as unknown as RegisteredKind;
}

const RANK: Record<SeverityRating, number> = { low: 1, medium: 2, high: 3, critical: 4 };

/** A known severity at or above the minimum; anything passes when there is no minimum. */
export function severityAtLeast(
  severity: SeverityRating | null,
  minimum: SeverityRating | null,
): boolean {
  if (!minimum) return true;
  return severity !== null && RANK[severity] >= RANK[minimum];
}

export function asSeverity(value: string | null | undefined): SeverityRating | null {
  return value === 'low' || value === 'medium' || value === 'high' || value === 'critical'
    ? value
    : null;
}

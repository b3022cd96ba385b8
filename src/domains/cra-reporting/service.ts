import type { Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { conflict, FieldErrorCollector, notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { markExploitationReported } from '../cra/findings/exploitation';
import { type CraActivelyExploited, emitEvent } from '../events';
import { clocksAtAwareness, dueAt, stateAfterSubmission } from './clocks/rules';
import {
  type ClockRow,
  claimDueSoon,
  findClock,
  type IncidentRow,
  insertClocks,
  insertIncident,
  markMissed,
  productExists,
  recordClockSubmission,
  vulnerabilityClocks,
} from './store';
import type { SevereBecause } from './tables';

/** A time given by the caller: not in the future (a minute of clock skew allowed). */
function pastTime(errors: FieldErrorCollector, field: string, value: string | undefined): Date {
  const now = Date.now();
  if (value === undefined) return new Date(now);
  const time = new Date(value);
  if (time.getTime() > now + 60_000) errors.add(field, 'must not be in the future');
  return time;
}

async function requireProduct(db: Kysely<DB>, productId: string): Promise<void> {
  if (!(await productExists(db, productId))) throw notFound('The product');
}

/**
 * The `cra.actively_exploited` event: the early warning and notification clocks of that
 * vulnerability in that product start at the detection time. Idempotent (one clock per kind);
 * a product deleted meanwhile starts nothing. Returns the clocks it started.
 */
export async function startVulnerabilityClocks(
  db: Kysely<DB>,
  event: CraActivelyExploited,
): Promise<ClockRow[]> {
  if (!(await productExists(db, event.productId))) return [];
  const awareAt = new Date(event.detectedAt);
  return insertClocks(
    db,
    clocksAtAwareness('vulnerability', awareAt).map((clock) => ({
      id: newId(),
      product_id: event.productId,
      trigger: 'vulnerability',
      vulnerability_id: event.vulnerabilityId,
      exposure_id: event.exposureId,
      incident_id: null,
      kind: clock.kind,
      started_at: clock.startedAt,
      due_at: clock.dueAt,
      start_note: null,
      started_by_token_id: null,
      due_alerted_at: null,
      missed_at: null,
      submitted_at: null,
      submission_reference: null,
      submission_note: null,
      submitted_by_token_id: null,
    })),
  );
}

export interface RecordIncidentInput {
  productId: string;
  title: string;
  description?: string;
  severeBecause: SevereBecause[];
  awareAtUtc?: string;
}

/** A severe incident a person records: its early warning and notification clocks start. */
export async function recordIncident(
  db: Kysely<DB>,
  principal: Principal,
  input: RecordIncidentInput,
): Promise<{ incident: IncidentRow; clocks: ClockRow[] }> {
  const errors = new FieldErrorCollector();
  const awareAt = pastTime(errors, 'awareAtUtc', input.awareAtUtc);
  if (input.title.trim() === '') errors.add('title', 'must not be blank');
  errors.throwIfAny(400);
  await requireProduct(db, input.productId);
  const incident = await insertIncident(db, {
    id: newId(),
    product_id: input.productId,
    title: input.title.trim(),
    description: input.description ?? '',
    severe_because: [...new Set(input.severeBecause)].sort(),
    aware_at: awareAt,
    recorded_by_token_id: principal.tokenId,
  });
  const clocks = await insertClocks(
    db,
    clocksAtAwareness('incident', awareAt).map((clock) => ({
      ...emptyClock(incident.product_id, 'incident'),
      incident_id: incident.id,
      kind: clock.kind,
      started_at: clock.startedAt,
      due_at: clock.dueAt,
      started_by_token_id: principal.tokenId,
    })),
  );
  return { incident, clocks };
}

function emptyClock(productId: string, trigger: 'vulnerability' | 'incident') {
  return {
    id: newId(),
    product_id: productId,
    trigger,
    vulnerability_id: null,
    exposure_id: null,
    incident_id: null,
    start_note: null,
    started_by_token_id: null,
    due_alerted_at: null,
    missed_at: null,
    submitted_at: null,
    submission_reference: null,
    submission_note: null,
    submitted_by_token_id: null,
  };
}

export interface SubmissionInput {
  reference: string;
  note?: string;
  submittedAtUtc?: string;
}

/**
 * Records what was sent to the CSIRT and ENISA against a clock: met when on time, missed when
 * late (kept either way). An incident's notification starts its final-report clock (one calendar
 * month); a vulnerability's first submission marks the product's exploitation reported.
 */
export async function submitClock(
  db: Kysely<DB>,
  principal: Principal,
  clockId: string,
  input: SubmissionInput,
): Promise<{ clock: ClockRow; started: ClockRow[] }> {
  const clock = await findClock(db, clockId, true);
  if (!clock) throw notFound('The clock');
  const errors = new FieldErrorCollector();
  const submittedAt = pastTime(errors, 'submittedAtUtc', input.submittedAtUtc);
  if (submittedAt < clock.started_at)
    errors.add('submittedAtUtc', 'must not be before the clock started');
  if (input.reference.trim() === '') errors.add('reference', 'must not be blank');
  errors.throwIfAny(400);
  if (clock.submitted_at) throw conflict('A submission is already recorded against this clock.');
  const updated = await recordClockSubmission(db, clock.id, {
    state: stateAfterSubmission(clock.due_at, submittedAt),
    submittedAt,
    reference: input.reference.trim(),
    note: input.note ?? null,
    tokenId: principal.tokenId,
  });
  let started: ClockRow[] = [];
  if (clock.trigger === 'incident' && clock.kind === 'notification' && clock.incident_id) {
    started = await insertClocks(db, [
      {
        ...emptyClock(clock.product_id, 'incident'),
        incident_id: clock.incident_id,
        kind: 'final_report',
        started_at: submittedAt,
        due_at: dueAt('incident', 'final_report', submittedAt),
        start_note: `notification submitted (${input.reference.trim()})`,
        started_by_token_id: principal.tokenId,
      },
    ]);
  }
  if (clock.trigger === 'vulnerability' && clock.vulnerability_id) {
    await markExploitationReported(db, clock.product_id, clock.vulnerability_id, submittedAt);
  }
  return { clock: updated, started };
}

export interface CorrectiveMeasureInput {
  vulnerabilityId: string;
  availableAtUtc?: string;
  note: string;
}

/**
 * A corrective or mitigating measure for an actively exploited vulnerability of the product is
 * available: the final-report clock starts (14 days). 409 when the vulnerability has no clocks
 * in the product (not actively exploited there) or the measure was already recorded.
 */
export async function recordCorrectiveMeasure(
  db: Kysely<DB>,
  principal: Principal,
  productId: string,
  input: CorrectiveMeasureInput,
): Promise<ClockRow> {
  const errors = new FieldErrorCollector();
  const availableAt = pastTime(errors, 'availableAtUtc', input.availableAtUtc);
  if (input.note.trim() === '') errors.add('note', 'must not be blank');
  errors.throwIfAny(400);
  await requireProduct(db, productId);
  const existing = await vulnerabilityClocks(db, productId, input.vulnerabilityId);
  const first = existing.find((clock) => clock.kind === 'early_warning') ?? existing[0];
  if (!first) {
    throw conflict('The vulnerability is not actively exploited in this product: no clocks run.');
  }
  if (existing.some((clock) => clock.kind === 'final_report')) {
    throw conflict('A corrective measure is already recorded for this vulnerability.');
  }
  if (availableAt < first.started_at) {
    errors.add('availableAtUtc', 'must not be before the vulnerability was detected');
    errors.throwIfAny(400);
  }
  const [clock] = await insertClocks(db, [
    {
      ...emptyClock(productId, 'vulnerability'),
      vulnerability_id: input.vulnerabilityId,
      exposure_id: first.exposure_id,
      kind: 'final_report',
      started_at: availableAt,
      due_at: dueAt('vulnerability', 'final_report', availableAt),
      start_note: input.note.trim(),
      started_by_token_id: principal.tokenId,
    },
  ]);
  if (!clock) throw conflict('A corrective measure is already recorded for this vulnerability.');
  return clock;
}

function dueEvent(clock: ClockRow, stage: 'due_soon' | 'missed') {
  return {
    clockId: clock.id,
    productId: clock.product_id,
    trigger: clock.trigger,
    kind: clock.kind,
    stage,
    dueAt: clock.due_at.toISOString(),
    vulnerabilityId: clock.vulnerability_id,
    incidentId: clock.incident_id,
  };
}

/**
 * One tenant's sweep: running clocks past due become missed, and running clocks past their
 * warning time are claimed once; each emits `cra.clock_due` (the alert kind `cra_clock_due`).
 */
export async function sweepTenantClocks(
  db: Kysely<DB>,
  tenantId: string,
  now: Date,
): Promise<{ missed: number; dueSoon: number }> {
  const missed = await markMissed(db, now);
  const dueSoon = await claimDueSoon(db, now);
  const events = [
    ...missed.map((clock) => dueEvent(clock, 'missed')),
    ...dueSoon.map((clock) => dueEvent(clock, 'due_soon')),
  ];
  for (const data of events) await emitEvent(db, 'cra.clock_due', { tenantId, data });
  return { missed: missed.length, dueSoon: dueSoon.length };
}

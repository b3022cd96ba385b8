import { iso } from '../../core/iso-time';
import type { ClockRow, IncidentRow, PackSummaryRow } from './store';

export const REPORT_FORMATS = ['json', 'markdown', 'pdf', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function presentClock(row: ClockRow, now = new Date()) {
  return {
    clockId: row.id,
    productId: row.product_id,
    trigger: row.trigger,
    vulnerabilityId: row.vulnerability_id,
    exposureId: row.exposure_id,
    incidentId: row.incident_id,
    kind: row.kind,
    startedAtUtc: row.started_at.toISOString(),
    startNote: row.start_note,
    dueAtUtc: row.due_at.toISOString(),
    state: row.state,
    overdue: row.state === 'running' && row.due_at.getTime() < now.getTime(),
    dueAlertedAtUtc: iso(row.due_alerted_at),
    missedAtUtc: iso(row.missed_at),
    submission:
      row.submitted_at && row.submission_reference !== null
        ? {
            submittedAtUtc: row.submitted_at.toISOString(),
            reference: row.submission_reference,
            note: row.submission_note,
            submittedByTokenId: row.submitted_by_token_id,
          }
        : null,
  };
}

export function presentIncident(row: IncidentRow, clocks: ClockRow[]) {
  return {
    incidentId: row.id,
    productId: row.product_id,
    title: row.title,
    description: row.description,
    severeBecause: row.severe_because,
    awareAtUtc: row.aware_at.toISOString(),
    recordedAtUtc: row.recorded_at.toISOString(),
    recordedByTokenId: row.recorded_by_token_id,
    clocks: clocks.filter((clock) => clock.incident_id === row.id).map((c) => presentClock(c)),
  };
}

export function presentPack(row: PackSummaryRow) {
  return {
    packId: row.id,
    productId: row.product_id,
    state: row.state,
    error: row.error,
    requestedByTokenId: row.requested_by_token_id,
    createdAtUtc: row.created_at.toISOString(),
    startedAtUtc: iso(row.started_at),
    finishedAtUtc: iso(row.finished_at),
    formats: [...REPORT_FORMATS],
  };
}

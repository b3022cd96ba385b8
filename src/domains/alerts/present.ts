import { iso } from '../../core/iso-time';
import type { AlertRow, AlertRuleRow } from './store';

/** The API shapes of a rule and an alert (also the payload of an `alert.raised` delivery). */
export function presentRule(row: AlertRuleRow) {
  return {
    alertRuleId: row.id,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    filters: {
      repositoryIds: row.repository_ids,
      ecosystems: row.ecosystems,
      minSeverity: row.min_severity,
    },
    settings: row.settings,
    dedupeWindowMinutes: row.dedupe_window_minutes,
    channels: row.channels,
    createdAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

export function presentAlert(row: AlertRow) {
  return {
    alertId: row.id,
    alertRuleId: row.rule_id,
    ruleName: row.rule_name,
    kind: row.kind,
    severity: row.severity,
    status: row.status,
    subject: row.subject,
    title: row.title,
    repositoryIds: row.repository_ids,
    packageId: row.package_id,
    payload: row.payload,
    raisedAtUtc: row.raised_at.toISOString(),
    acknowledgedAtUtc: iso(row.acknowledged_at),
    acknowledgedByTokenId: row.acknowledged_by_token_id,
    note: row.acknowledgement_note,
  };
}

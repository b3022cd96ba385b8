import type { Insertable, Kysely } from 'kysely';
import { isPlan, planHas } from '../../core/plans';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { EventName } from '../events';
import { queueEventDeliveries } from '../integrations/deliver';
import { kindsForEvent } from './kinds';
import {
  type AlertCandidate,
  asSeverity,
  type RegisteredKind,
  severityAtLeast,
} from './kinds/types';
import { presentAlert } from './present';
import {
  type AlertRow,
  type AlertRuleRow,
  claimSubjects,
  type DedupeClaim,
  dedupeKey,
  enabledRulesOf,
  insertAlerts,
} from './store';
import type { AlertTable } from './tables';

/** The event type of an alert delivered to a rule's channels (docs/events.md). */
export const ALERT_RAISED_EVENT = 'alert.raised';

export interface RaiseResult {
  candidates: number;
  matched: number;
  raised: AlertRow[];
  deliveries: number;
}

interface Match {
  rule: AlertRuleRow;
  candidate: AlertCandidate;
}

/** The rule's common filters (repositories, ecosystems) and its kind's judgement of the rest. */
export function ruleMatches(kind: RegisteredKind, rule: AlertRuleRow, found: AlertCandidate) {
  if (rule.repository_ids.length > 0) {
    const wanted = new Set(rule.repository_ids);
    if (!found.repositoryIds.some((id) => wanted.has(id))) return false;
  }
  if (
    rule.ecosystems.length > 0 &&
    !(found.ecosystem && rule.ecosystems.includes(found.ecosystem))
  ) {
    return false;
  }
  const view = { minSeverity: asSeverity(rule.min_severity), settings: rule.settings };
  return kind.matches
    ? kind.matches(view, found)
    : severityAtLeast(found.severity, view.minSeverity);
}

async function planAllowsAlerts(db: Kysely<DB>, tenantId: string): Promise<boolean> {
  const tenant = await db
    .selectFrom('tenants')
    .select('plan')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return tenant !== undefined && isPlan(tenant.plan) && planHas(tenant.plan, 'alert_rules');
}

/** Every (rule, candidate) pair that matches, one per (rule, subject). */
async function matchesOf(db: Kysely<DB>, event: EventName, data: unknown) {
  const kinds = kindsForEvent(event);
  const rules = await enabledRulesOf(
    db,
    kinds.map((k) => k.kind),
  );
  const found: Match[] = [];
  let candidates = 0;
  const seen = new Set<string>();
  for (const kind of kinds) {
    const ofKind = rules.filter((rule) => rule.kind === kind.kind);
    if (ofKind.length === 0) continue;
    const list = await kind.candidates(db, data);
    candidates += list.length;
    for (const rule of ofKind) {
      for (const candidate of list) {
        const key = dedupeKey(rule.id, candidate.subject);
        if (seen.has(key) || !ruleMatches(kind, rule, candidate)) continue;
        seen.add(key);
        found.push({ rule, candidate });
      }
    }
  }
  return { found, candidates };
}

function alertRow(match: Match): Insertable<AlertTable> {
  const { rule, candidate } = match;
  return {
    id: newId(),
    rule_id: rule.id,
    rule_name: rule.name,
    kind: rule.kind,
    severity: candidate.severity,
    subject: candidate.subject,
    title: candidate.title.slice(0, 500),
    repository_ids: candidate.repositoryIds,
    package_id: candidate.packageId,
    payload: JSON.stringify(candidate.payload),
  };
}

/**
 * Raises the alerts one event gives, in the tenant's transaction (the job's): the kinds that
 * listen to the event turn it into candidates, each enabled rule of those kinds keeps the
 * candidates that pass its filters, the dedupe claim keeps the subjects outside their rule's
 * window, and each new alert is queued to its rule's channels in the same transaction. A tenant
 * whose plan lacks `alert_rules` gets no alerts.
 */
export async function raiseAlerts(
  db: Kysely<DB>,
  tenantId: string,
  event: EventName,
  data: unknown,
): Promise<RaiseResult> {
  const result: RaiseResult = { candidates: 0, matched: 0, raised: [], deliveries: 0 };
  if (!(await planAllowsAlerts(db, tenantId))) return result;
  const { found, candidates } = await matchesOf(db, event, data);
  result.candidates = candidates;
  result.matched = found.length;
  if (found.length === 0) return result;
  const claims: DedupeClaim[] = found.map(({ rule, candidate }) => ({
    ruleId: rule.id,
    subject: candidate.subject,
    windowMinutes: rule.dedupe_window_minutes,
  }));
  const won = await claimSubjects(db, claims);
  const raising = found.filter((m) => won.has(dedupeKey(m.rule.id, m.candidate.subject)));
  result.raised = await insertAlerts(db, raising.map(alertRow));
  const channelsOf = new Map(found.map((m) => [m.rule.id, m.rule.channels]));
  for (const alert of result.raised) {
    const channels = channelsOf.get(alert.rule_id) ?? [];
    if (channels.length === 0) continue;
    result.deliveries += await queueEventDeliveries(db, {
      integrationIds: channels,
      eventType: ALERT_RAISED_EVENT,
      payload: presentAlert(alert),
    });
  }
  return result;
}

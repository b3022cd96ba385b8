import { Ajv, type ErrorObject } from 'ajv';
import type { Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { FieldErrorCollector, notFound, unprocessable } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { SEVERITY_RATINGS } from '../../intel/osv/types';
import { existingRepositories } from '../repositories/store';
import { ALERT_KIND_NAMES, kindNamed } from './kinds';
import { DEFAULT_DEDUPE_WINDOW_MINUTES } from './schemas';
import { applyAlertTransition } from './state-machine';
import {
  type AlertRow,
  type AlertRuleRow,
  acknowledgeAlert,
  existingIntegrations,
  findAlert,
  findRule,
  insertRule,
  type RuleValues,
  updateRule,
} from './store';
import { ALERT_STATUSES, type AlertStatus } from './tables';

export interface RuleBody {
  name?: string;
  kind?: string;
  enabled?: boolean;
  filters?: { repositoryIds?: string[]; ecosystems?: string[]; minSeverity?: string | null };
  settings?: object;
  dedupeWindowMinutes?: number;
  channels?: string[];
}

const ajv = new Ajv({ allErrors: true, strict: false });

function settingsErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) =>
    e.keyword === 'additionalProperties'
      ? `unknown setting ${String(e.params.additionalProperty)}`
      : `${e.instancePath.replace(/^\//, '') || 'settings'} ${e.message ?? 'is invalid'}`,
  );
}

/** Folds a spelling (`NPM`, `PyPi`) onto a member, as the enum filters do. */
function member<T extends string>(members: readonly T[], value: string): T | undefined {
  const fold = (v: string) => v.replace(/[_\-\s.]/g, '').toLowerCase();
  return members.find((m) => fold(m) === fold(value));
}

/**
 * A rule's stored values from a full body (create) or a body over the current rule (PATCH):
 * the kind must be registered, its settings valid for that kind, ecosystems and severity known,
 * repositories the tenant's own. Every problem is a 400 keyed by field.
 */
async function resolveRule(
  db: Kysely<DB>,
  body: RuleBody,
  current: RuleValues | null,
): Promise<RuleValues> {
  const errors = new FieldErrorCollector();
  const kindName = body.kind ?? current?.kind ?? '';
  const kind = kindNamed(kindName);
  if (!kind) errors.add('kind', `must be one of ${ALERT_KIND_NAMES.join(', ')}`);
  const kindChanged = current !== null && body.kind !== undefined && body.kind !== current.kind;
  const settings: Record<string, unknown> = {
    ...(body.settings ?? (kindChanged ? {} : (current?.settings ?? {}))),
  };
  if (kind) {
    const validate = ajv.compile(kind.settingsSchema);
    if (!validate(settings))
      for (const m of settingsErrors(validate.errors)) errors.add('settings', m);
    else
      for (const [field, messages] of Object.entries(kind.checkSettings?.(settings) ?? {})) {
        for (const m of messages) errors.add(field, m);
      }
  }
  const filters = body.filters ?? {};
  const ecosystems: string[] = [];
  for (const value of filters.ecosystems ?? current?.ecosystems ?? []) {
    const known = member(ECOSYSTEMS, value);
    if (known) ecosystems.push(known);
    else errors.add('filters.ecosystems', `unknown ecosystem ${value}`);
  }
  let minSeverity = current?.minSeverity ?? null;
  if (filters.minSeverity !== undefined) {
    minSeverity =
      filters.minSeverity === null ? null : (member(SEVERITY_RATINGS, filters.minSeverity) ?? null);
    if (filters.minSeverity !== null && !minSeverity) {
      errors.add('filters.minSeverity', `must be one of ${SEVERITY_RATINGS.join(', ')}`);
    }
  }
  const repositoryIds = [...new Set(filters.repositoryIds ?? current?.repositoryIds ?? [])];
  if (filters.repositoryIds) {
    const known = await existingRepositories(db, repositoryIds);
    for (const id of repositoryIds) {
      if (!known.has(id)) errors.add('filters.repositoryIds', `no repository ${id}`);
    }
  }
  const channels = [...new Set(body.channels ?? current?.channels ?? [])];
  if (body.channels) {
    const known = await existingIntegrations(db, channels);
    for (const id of channels) if (!known.has(id)) errors.add('channels', `no integration ${id}`);
  }
  errors.throwIfAny(400);
  return {
    name: body.name ?? current?.name ?? '',
    kind: kindName,
    enabled: body.enabled ?? current?.enabled ?? true,
    repositoryIds,
    ecosystems: [...new Set(ecosystems)],
    minSeverity,
    settings,
    dedupeWindowMinutes:
      body.dedupeWindowMinutes ?? current?.dedupeWindowMinutes ?? DEFAULT_DEDUPE_WINDOW_MINUTES,
    channels,
  };
}

function valuesOf(row: AlertRuleRow): RuleValues {
  return {
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    repositoryIds: row.repository_ids,
    ecosystems: row.ecosystems,
    minSeverity: row.min_severity,
    settings: row.settings,
    dedupeWindowMinutes: row.dedupe_window_minutes,
    channels: row.channels,
  };
}

export async function createRule(
  db: Kysely<DB>,
  principal: Principal,
  body: RuleBody,
): Promise<AlertRuleRow> {
  const values = await resolveRule(db, body, null);
  return insertRule(db, newId(), values, principal.tokenId);
}

export async function changeRule(
  db: Kysely<DB>,
  ruleId: string,
  body: RuleBody,
): Promise<AlertRuleRow> {
  const current = await findRule(db, ruleId, true);
  if (!current) throw notFound('The alert rule');
  const values = await resolveRule(db, body, valuesOf(current));
  const updated = await updateRule(db, ruleId, values);
  if (!updated) throw notFound('The alert rule');
  return updated;
}

/**
 * PATCH of an alert: acknowledges it (the only move, docs/design.md#states). A second acknowledgement, or a
 * status other than acknowledged, is a 422 keyed `status`. `details` goes to the audit entry.
 */
export async function acknowledge(
  db: Kysely<DB>,
  principal: Principal,
  alertId: string,
  body: { status?: string; note?: string | null },
  details: Record<string, unknown>,
): Promise<AlertRow> {
  details.requested = { status: body.status ?? 'acknowledged', note: body.note ?? null };
  const current = await findAlert(db, alertId, true);
  if (!current) throw notFound('The alert');
  const to: AlertStatus | undefined =
    body.status === undefined ? 'acknowledged' : member(ALERT_STATUSES, body.status);
  if (!to) {
    throw unprocessable('The status change is not allowed.', {
      status: [`must be one of ${ALERT_STATUSES.join(', ')}`],
    });
  }
  details.from = current.status;
  const outcome = applyAlertTransition(current.status, { to, note: body.note });
  if (!outcome.ok) throw unprocessable('The status change is not allowed.', outcome.errors);
  const updated = await acknowledgeAlert(db, alertId, {
    note: outcome.note,
    tokenId: principal.tokenId,
  });
  if (!updated) throw notFound('The alert');
  details.to = updated.status;
  return updated;
}

import type { Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { badRequest, notFound, unprocessable } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { ECOSYSTEMS } from '../../ecosystems/names';
import { parseEnum } from '../../http/query';
import { enqueue } from '../../jobs/outbox';
import { compileCondition } from './evaluation/cel';
import { EVALUATE_POLICY } from './jobs';
import {
  deletePolicy,
  findPolicy,
  insertPolicy,
  knownRepositoryIds,
  type PolicyRow,
  type PolicyValues,
  updatePolicy,
} from './store';
import { POLICY_ACTIONS, POLICY_SEVERITIES, type PolicyScope } from './tables';

const CRITICALITIES = ['low', 'medium', 'high', 'critical'] as const;
const LIFECYCLES = ['active', 'maintenance', 'deprecated', 'archived'] as const;

export interface PolicyBody {
  name?: string;
  description?: string;
  condition?: string;
  severity?: string;
  action?: string;
  enabled?: boolean;
  scope?: Partial<PolicyScope>;
}

/** The compiled condition, or 422 with `errors.condition` naming the position. */
export function checkCondition(condition: string): void {
  const compiled = compileCondition(condition);
  if (!compiled.ok) {
    throw unprocessable('The condition is not a valid policy condition.', {
      condition: compiled.errors,
    });
  }
}

function parseList<T extends string>(
  field: string,
  values: readonly string[] | undefined,
  members: readonly T[],
): T[] {
  return [
    ...new Set(
      (values ?? []).map((value, index) => {
        const parsed = parseEnum(`${field}[${index}]`, value, members);
        if (!parsed)
          throw badRequest(`${field} has an empty entry.`, {
            [`${field}[${index}]`]: ['must not be empty'],
          });
        return parsed;
      }),
    ),
  ];
}

function scopeOf(scope: Partial<PolicyScope> | undefined): PolicyScope {
  return {
    repositoryIds: [...new Set(scope?.repositoryIds ?? [])],
    ecosystems: parseList('scope.ecosystems', scope?.ecosystems, ECOSYSTEMS),
    businessCriticalities: parseList(
      'scope.businessCriticalities',
      scope?.businessCriticalities,
      CRITICALITIES,
    ),
    lifecycleStatuses: parseList('scope.lifecycleStatuses', scope?.lifecycleStatuses, LIFECYCLES),
  };
}

/** The stored values a body asks for on top of `current` (create: none). */
function valuesOf(body: PolicyBody, current?: PolicyRow): PolicyValues {
  const severity =
    body.severity === undefined
      ? current?.severity
      : parseEnum('severity', body.severity, POLICY_SEVERITIES);
  const action =
    body.action === undefined ? current?.action : parseEnum('action', body.action, POLICY_ACTIONS);
  const name = (body.name ?? current?.name ?? '').trim();
  const condition = body.condition ?? current?.condition ?? '';
  const errors: Record<string, string[]> = {};
  if (!name) errors.name = ['must not be blank'];
  if (!severity) errors.severity = [`is required: ${POLICY_SEVERITIES.join(', ')}`];
  if (!action) errors.action = [`is required: ${POLICY_ACTIONS.join(', ')}`];
  if (!severity || !action || !name) throw badRequest('The policy is incomplete.', errors);
  if (body.condition !== undefined || !current) checkCondition(condition);
  return {
    name,
    description: (body.description ?? current?.description ?? '').trim(),
    condition,
    severity,
    action,
    enabled: body.enabled ?? current?.enabled ?? true,
    scope: body.scope === undefined && current ? current.scope : scopeOf(body.scope),
  };
}

/** 400 naming each id of `scope.repositoryIds` that is not one of the tenant's repositories. */
async function checkRepositories(db: Kysely<DB>, scope: PolicyScope): Promise<void> {
  const known = await knownRepositoryIds(db, scope.repositoryIds);
  const unknown = scope.repositoryIds.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  throw badRequest('The scope names repositories the tenant does not have.', {
    'scope.repositoryIds': unknown.map((id) => `${id} is not one of the tenant's repositories`),
  });
}

/** Queues the evaluation of a policy over every repository, in the caller's transaction. */
async function queueEvaluation(
  db: Kysely<DB>,
  principal: Principal,
  policyId: string,
  correlationId: string,
) {
  await enqueue(db, EVALUATE_POLICY, {
    tenantId: principal.tenantId,
    data: { policyId },
    correlationId,
  });
}

export async function createPolicy(
  db: Kysely<DB>,
  principal: Principal,
  body: PolicyBody,
  correlationId: string,
): Promise<PolicyRow> {
  const values = valuesOf(body);
  await checkRepositories(db, values.scope);
  const row = await insertPolicy(db, newId(), values, principal.tokenId);
  await queueEvaluation(db, principal, row.id, correlationId);
  return row;
}

/** PATCH: the fields given replace the stored ones; the version increments. */
export async function changePolicy(
  db: Kysely<DB>,
  principal: Principal,
  request: { policyId: string; body: PolicyBody; correlationId: string },
  details: Record<string, unknown>,
): Promise<{ before: PolicyRow; after: PolicyRow }> {
  const { policyId, body } = request;
  const before = await findPolicy(db, policyId, true);
  if (!before) throw notFound('The policy');
  const values = valuesOf(body, before);
  // Only a scope given in the body is checked: a repository deleted since stays harmless.
  if (body.scope !== undefined) await checkRepositories(db, values.scope);
  const after = await updatePolicy(db, policyId, values);
  await queueEvaluation(db, principal, policyId, request.correlationId);
  details.changed = Object.keys(body);
  details.before = summary(before);
  details.after = summary(after);
  return { before, after };
}

export async function removePolicy(db: Kysely<DB>, policyId: string): Promise<void> {
  if (!(await deletePolicy(db, policyId))) throw notFound('The policy');
}

/** What the audit log keeps of a policy. */
export function summary(row: PolicyRow) {
  return {
    name: row.name,
    condition: row.condition,
    severity: row.severity,
    action: row.action,
    enabled: row.enabled,
    scope: row.scope,
    version: row.version,
  };
}

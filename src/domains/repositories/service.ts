import { type Kysely, sql } from 'kysely';
import { FieldErrorCollector, notFound } from '../../core/problem';
import type { DB } from '../../db/schema';
import { isValidBranchName } from '../../sources/git';
import { emitEvent } from '../events';
import {
  BUSINESS_CRITICALITIES,
  deleteRepository,
  findRepository,
  LIFECYCLE_STATUSES,
  type RepositoryRow,
} from './store';
import type { BusinessCriticality, LifecycleStatus } from './tables';

export interface RepositoryUpdate {
  name?: string;
  defaultBranch?: string;
  workspaceId?: string | null;
  teamId?: string | null;
  businessCriticality?: string | null;
  lifecycleStatus?: string;
}

const UPDATABLE = new Set([
  'name',
  'defaultBranch',
  'workspaceId',
  'teamId',
  'businessCriticality',
  'lifecycleStatus',
]);

const fold = (value: string) => value.replace(/[_\-\s]/g, '').toLowerCase();

function member<T extends string>(value: string, members: readonly T[]): T | undefined {
  return members.find((m) => fold(m) === fold(value));
}

/**
 * PATCH: absolute values for the fields present. Rule violations are 422 with `errors` by field
 * and change nothing.
 */
export async function updateRepository(
  db: Kysely<DB>,
  repositoryId: string,
  update: RepositoryUpdate,
): Promise<RepositoryRow> {
  const errors = new FieldErrorCollector();
  const set: {
    name?: string;
    default_branch?: string;
    workspace_id?: string | null;
    team_id?: string | null;
    business_criticality?: BusinessCriticality | null;
    lifecycle_status?: LifecycleStatus;
  } = {};
  for (const key of Object.keys(update)) {
    if (!UPDATABLE.has(key)) errors.add(key, 'is not a field that can be updated');
  }
  if (update.name !== undefined) {
    const name = update.name.trim();
    if (name === '') errors.add('name', 'must not be empty');
    else set.name = name;
  }
  if (update.defaultBranch !== undefined) {
    if (!isValidBranchName(update.defaultBranch)) {
      errors.add('defaultBranch', 'must be a valid git branch name');
    } else set.default_branch = update.defaultBranch;
  }
  if (update.workspaceId !== undefined) set.workspace_id = update.workspaceId;
  if (update.teamId !== undefined) set.team_id = update.teamId;
  if (update.businessCriticality !== undefined) {
    if (update.businessCriticality === null) set.business_criticality = null;
    else {
      const value = member(update.businessCriticality, BUSINESS_CRITICALITIES);
      if (!value) {
        errors.add(
          'businessCriticality',
          `must be one of ${BUSINESS_CRITICALITIES.join(', ')} or null`,
        );
      } else set.business_criticality = value;
    }
  }
  if (update.lifecycleStatus !== undefined) {
    const value = member(update.lifecycleStatus, LIFECYCLE_STATUSES);
    if (!value) errors.add('lifecycleStatus', `must be one of ${LIFECYCLE_STATUSES.join(', ')}`);
    else set.lifecycle_status = value;
  }
  const existing = await findRepository(db, repositoryId);
  if (!existing) throw notFound('The repository');
  errors.throwIfAny(422, 'The repository update has invalid fields.');
  if (Object.keys(set).length === 0) return existing;
  const updated = await db
    .updateTable('repositories')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('id', '=', repositoryId)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw notFound('The repository');
  return updated;
}

/**
 * Deletes a repository (its scans, dependencies and derived rows go with it) and announces it
 * in the same transaction: `repository.deleted`, on which the dashboard's rollups drop it
 * (docs/events.md). False when there was no such repository.
 */
export async function removeRepository(
  db: Kysely<DB>,
  input: { tenantId: string; repositoryId: string; correlationId: string | null },
): Promise<boolean> {
  if (!(await deleteRepository(db, input.repositoryId))) return false;
  await emitEvent(db, 'repository.deleted', {
    tenantId: input.tenantId,
    data: { repositoryId: input.repositoryId },
    correlationId: input.correlationId,
  });
  return true;
}

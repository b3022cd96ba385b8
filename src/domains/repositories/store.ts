import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { Ecosystem } from '../../ecosystems/types';
import type {
  BusinessCriticality,
  LifecycleStatus,
  RepositoryDependencyTable,
  RepositoryTable,
} from './tables';

export type RepositoryRow = Selectable<RepositoryTable>;
export type RepositoryDependencyRow = Selectable<RepositoryDependencyTable>;

export const BUSINESS_CRITICALITIES: readonly BusinessCriticality[] = [
  'low',
  'medium',
  'high',
  'critical',
];
export const LIFECYCLE_STATUSES: readonly LifecycleStatus[] = [
  'active',
  'maintenance',
  'deprecated',
  'archived',
];

export interface RepositoryFilter {
  workspaceId?: string;
  teamId?: string;
  businessCriticality?: BusinessCriticality;
  lifecycleStatus?: LifecycleStatus;
  /** Case-insensitive substring of full_name; LIKE wildcards in it match literally. */
  search?: string;
}

function filtered(db: Kysely<DB>, filter: RepositoryFilter) {
  let query = db.selectFrom('repositories');
  if (filter.workspaceId) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.teamId) query = query.where('team_id', '=', filter.teamId);
  if (filter.businessCriticality) {
    query = query.where('business_criticality', '=', filter.businessCriticality);
  }
  if (filter.lifecycleStatus) query = query.where('lifecycle_status', '=', filter.lifecycleStatus);
  if (filter.search) {
    const escaped = filter.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where('full_name', 'ilike', `%${escaped}%`);
  }
  return query;
}

/** A stable natural order (full name, then id); the count is of the filtered set. */
export async function listRepositories(
  db: Kysely<DB>,
  filter: RepositoryFilter,
  page: { take: number; skip: number },
): Promise<{ rows: RepositoryRow[]; total: number }> {
  const rows = await filtered(db, filter)
    .selectAll()
    .orderBy('full_name')
    .orderBy('id')
    .limit(page.take)
    .offset(page.skip)
    .execute();
  const counted = await filtered(db, filter)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: counted.n };
}

export async function findRepository(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<RepositoryRow | undefined> {
  return db
    .selectFrom('repositories')
    .selectAll()
    .where('id', '=', repositoryId)
    .executeTakeFirst();
}

/** Which of `ids` are the tenant's repositories (alerts and CRA products name them). */
export async function existingRepositories(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('repositories')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function deleteRepository(db: Kysely<DB>, repositoryId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('repositories')
    .where('id', '=', repositoryId)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

export async function listDependencies(
  db: Kysely<DB>,
  repositoryId: string,
  filter: { ecosystem?: Ecosystem; direct?: boolean; search?: string },
  page: { take: number; skip: number },
): Promise<{ rows: RepositoryDependencyRow[]; total: number }> {
  let query = db.selectFrom('repository_dependencies').where('repository_id', '=', repositoryId);
  if (filter.ecosystem) query = query.where('ecosystem', '=', filter.ecosystem);
  if (filter.direct !== undefined) query = query.where('direct', '=', filter.direct);
  // "Transitive only" means dependencies reached through others: the project's own packages
  // (scope self, never direct) are neither direct nor transitive.
  if (filter.direct === false) query = query.where('scope', '<>', 'self');
  if (filter.search) {
    const escaped = filter.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where('name', 'ilike', `%${escaped}%`);
  }
  const rows = await query
    .selectAll()
    .orderBy('ecosystem')
    .orderBy('name')
    .orderBy('version')
    .orderBy('file')
    .orderBy('id')
    .limit(page.take)
    .offset(page.skip)
    .execute();
  const counted = await query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: counted.n };
}

/** Every dependency of a repository (the graph reads them all; bounded by what a scan stores). */
export async function allDependencies(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<RepositoryDependencyRow[]> {
  return db
    .selectFrom('repository_dependencies')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .orderBy('file')
    .orderBy('id')
    .execute();
}

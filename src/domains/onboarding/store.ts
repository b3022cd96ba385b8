import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { isOnboardingStep, type OnboardingStep } from './state-machine';

/** Tables of other domains the steps look at; a table not (yet) in the schema counts as empty. */
const POLICY_TABLE = 'policies';
const ALERT_RULE_TABLE = 'alert_rules';

interface StepRows {
  connections: boolean;
  repositories: boolean;
  completed_scans: boolean;
  triaged_exposures: boolean;
  policy_table: boolean;
  alert_rule_table: boolean;
}

/** Which steps the tenant has done, from its stored state (row-level security scopes each). */
export async function doneSteps(db: Kysely<DB>): Promise<Set<OnboardingStep>> {
  const { rows } = await sql<StepRows>`SELECT
      EXISTS (SELECT 1 FROM source_control_connections) AS connections,
      EXISTS (SELECT 1 FROM repositories) AS repositories,
      EXISTS (SELECT 1 FROM scans WHERE state = 'completed') AS completed_scans,
      EXISTS (SELECT 1 FROM vulnerability_exposures
              WHERE status_changed_by_token_id IS NOT NULL) AS triaged_exposures,
      to_regclass(${POLICY_TABLE}) IS NOT NULL AS policy_table,
      to_regclass(${ALERT_RULE_TABLE}) IS NOT NULL AS alert_rule_table`.execute(db);
  const row = rows[0];
  const done = new Set<OnboardingStep>();
  if (!row) return done;
  if (row.connections) done.add('connect_source_control');
  if (row.repositories) done.add('import_repositories');
  if (row.completed_scans) done.add('first_scan');
  if (row.triaged_exposures) done.add('review_findings');
  if (row.policy_table && (await hasRows(db, POLICY_TABLE))) done.add('configure_policies');
  if (row.alert_rule_table && (await hasRows(db, ALERT_RULE_TABLE))) done.add('configure_alerts');
  return done;
}

async function hasRows(db: Kysely<DB>, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`SELECT EXISTS (
    SELECT 1 FROM ${sql.table(table)}) AS found`.execute(db);
  return rows[0]?.found === true;
}

export interface StoredProgress {
  skipped: Set<OnboardingStep>;
  updatedAt: Date | null;
}

/** The stored skips; `lock` takes the row for an advance (created first if missing). */
export async function readProgress(db: Kysely<DB>, lock: boolean): Promise<StoredProgress> {
  if (lock) {
    await db
      .insertInto('onboarding_progress')
      .defaultValues()
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  let query = db.selectFrom('onboarding_progress').select(['skipped_steps', 'updated_at']);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return {
    skipped: new Set((row?.skipped_steps ?? []).filter(isOnboardingStep)),
    updatedAt: row?.updated_at ?? null,
  };
}

export async function saveSkipped(db: Kysely<DB>, skipped: OnboardingStep[]): Promise<Date> {
  const row = await db
    .updateTable('onboarding_progress')
    .set({ skipped_steps: skipped, updated_at: sql<Date>`now()` })
    .returning('updated_at')
    .executeTakeFirstOrThrow();
  return row.updated_at;
}

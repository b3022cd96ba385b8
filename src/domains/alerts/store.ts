import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { compositeKey } from '../../core/composite-key';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { AlertRuleTable, AlertStatus, AlertTable } from './tables';

export type AlertRuleRow = Selectable<AlertRuleTable>;
export type AlertRow = Selectable<AlertTable>;

export interface RuleValues {
  name: string;
  kind: string;
  enabled: boolean;
  repositoryIds: string[];
  ecosystems: string[];
  minSeverity: string | null;
  settings: Record<string, unknown>;
  dedupeWindowMinutes: number;
  channels: string[];
}

function ruleColumns(values: RuleValues) {
  return {
    name: values.name,
    kind: values.kind,
    enabled: values.enabled,
    repository_ids: values.repositoryIds,
    ecosystems: values.ecosystems,
    min_severity: values.minSeverity,
    settings: JSON.stringify(values.settings),
    dedupe_window_minutes: values.dedupeWindowMinutes,
    channels: values.channels,
  };
}

export async function insertRule(
  db: Kysely<DB>,
  id: string,
  values: RuleValues,
  createdByTokenId: string,
): Promise<AlertRuleRow> {
  return db
    .insertInto('alert_rules')
    .values({ id, ...ruleColumns(values), created_by_token_id: createdByTokenId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateRule(
  db: Kysely<DB>,
  id: string,
  values: RuleValues,
): Promise<AlertRuleRow | undefined> {
  return db
    .updateTable('alert_rules')
    .set({ ...ruleColumns(values), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function listRules(db: Kysely<DB>): Promise<AlertRuleRow[]> {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findRule(
  db: Kysely<DB>,
  id: string,
  lock = false,
): Promise<AlertRuleRow | undefined> {
  let query = db.selectFrom('alert_rules').selectAll().where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function deleteRule(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db
    .deleteFrom('alert_rules')
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The tenant's enabled rules of these kinds. */
export async function enabledRulesOf(
  db: Kysely<DB>,
  kinds: readonly string[],
): Promise<AlertRuleRow[]> {
  if (kinds.length === 0) return [];
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('enabled', '=', true)
    .where('kind', 'in', [...kinds])
    .orderBy('id')
    .execute();
}

/** Which of `ids` are the tenant's integrations (disabled ones included: they may return). */
export async function existingIntegrations(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('integrations')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

export interface AlertFilter {
  kind?: string;
  severity?: string;
  status?: AlertStatus;
  repositoryId?: string;
  from?: Date;
  to?: Date;
}

function filtered(db: Kysely<DB>, filter: AlertFilter) {
  let query = db.selectFrom('alerts');
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.severity) query = query.where('severity', '=', filter.severity);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.repositoryId) {
    query = query.where(sql<boolean>`repository_ids @> ARRAY[${filter.repositoryId}]::uuid[]`);
  }
  if (filter.from) query = query.where('raised_at', '>=', filter.from);
  if (filter.to) query = query.where('raised_at', '<=', filter.to);
  return query;
}

export async function listAlerts(
  db: Kysely<DB>,
  filter: AlertFilter,
  page: TakeSkip,
): Promise<TakeSkipPage<AlertRow>> {
  return takeSkipPage(
    filtered(db, filter),
    (query) => query.selectAll().orderBy('raised_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

export async function findAlert(
  db: Kysely<DB>,
  id: string,
  lock = false,
): Promise<AlertRow | undefined> {
  let query = db.selectFrom('alerts').selectAll().where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function acknowledgeAlert(
  db: Kysely<DB>,
  id: string,
  change: { note: string | null; tokenId: string },
): Promise<AlertRow | undefined> {
  return db
    .updateTable('alerts')
    .set({
      status: 'acknowledged',
      acknowledged_at: sql<Date>`now()`,
      acknowledged_by_token_id: change.tokenId,
      acknowledgement_note: change.note,
    })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

export interface DedupeClaim {
  ruleId: string;
  subject: string;
  windowMinutes: number;
}

/**
 * Claims (rule, subject) pairs for raising: a pair wins when it is new or its quiet period has
 * passed (a window of 0: always), and the winners' quiet period starts now. One statement:
 * concurrent claims of the same pair serialise on its unique key, so only one raises. Returns
 * the winning pairs as keys.
 */
export async function claimSubjects(
  db: Kysely<DB>,
  claims: readonly DedupeClaim[],
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const { rows } = await sql<{ rule_id: string; subject: string }>`
    INSERT INTO alert_dedupe (rule_id, subject, last_raised_at, quiet_until)
    SELECT c.rule_id, c.subject, now(), now() + make_interval(mins => c.window_minutes)
    FROM unnest(${claims.map((c) => c.ruleId)}::uuid[], ${claims.map((c) => c.subject)}::text[],
      ${claims.map((c) => c.windowMinutes)}::int[]) AS c(rule_id, subject, window_minutes)
    ON CONFLICT (tenant_id, rule_id, subject) DO UPDATE
      SET last_raised_at = EXCLUDED.last_raised_at, quiet_until = EXCLUDED.quiet_until
      WHERE alert_dedupe.quiet_until <= EXCLUDED.last_raised_at
        -- A window of 0 always wins: two concurrent claims read now() at their transactions'
        -- starts, and the later committer may hold the earlier time.
        OR EXCLUDED.quiet_until <= EXCLUDED.last_raised_at
    RETURNING rule_id, subject`.execute(db);
  return new Set(rows.map((row) => dedupeKey(row.rule_id, row.subject)));
}

export const dedupeKey = (ruleId: string, subject: string) => compositeKey(ruleId, subject);

export async function insertAlerts(
  db: Kysely<DB>,
  alerts: Insertable<AlertTable>[],
): Promise<AlertRow[]> {
  const rows: AlertRow[] = [];
  for (let i = 0; i < alerts.length; i += 500) {
    rows.push(
      ...(await db
        .insertInto('alerts')
        .values(alerts.slice(i, i + 500))
        .returningAll()
        .execute()),
    );
  }
  return rows;
}

import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { DisabledReason, IntegrationStatus } from './tables';

/** The columns shown to callers (never the sealed secret). */
const PUBLIC_COLUMNS = [
  'id',
  'kind',
  'name',
  'url',
  'status',
  'disabled_reason',
  'disabled_at',
  'last_success_at',
  'last_failure_at',
  'created_at',
  'updated_at',
] as const;

export async function insertIntegration(
  db: Kysely<DB>,
  values: { id: string; name: string; url: string; secretSealed: string },
) {
  return db
    .insertInto('integrations')
    .values({
      id: values.id,
      name: values.name,
      url: values.url,
      secret_sealed: values.secretSealed,
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

export type PublicIntegration = Awaited<ReturnType<typeof insertIntegration>>;

export async function listIntegrations(db: Kysely<DB>): Promise<PublicIntegration[]> {
  return db
    .selectFrom('integrations')
    .select(PUBLIC_COLUMNS)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findIntegration(
  db: Kysely<DB>,
  id: string,
  lock = false,
): Promise<PublicIntegration | undefined> {
  const query = db.selectFrom('integrations').select(PUBLIC_COLUMNS).where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function findSealedSecret(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('integrations')
    .select(['url', 'status', 'secret_sealed'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface IntegrationChanges {
  name?: string;
  url?: string;
  secretSealed?: string;
  status?: IntegrationStatus;
  disabledReason?: DisabledReason | null;
}

export async function updateIntegration(
  db: Kysely<DB>,
  id: string,
  changes: IntegrationChanges,
): Promise<PublicIntegration | undefined> {
  const disabling = changes.status === 'disabled';
  return db
    .updateTable('integrations')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.secretSealed !== undefined ? { secret_sealed: changes.secretSealed } : {}),
      ...(changes.status !== undefined
        ? {
            status: changes.status,
            disabled_reason: disabling ? (changes.disabledReason ?? 'manual') : null,
            disabled_at: disabling ? sql<Date>`now()` : null,
          }
        : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
}

export async function deleteIntegration(db: Kysely<DB>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('integrations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The active integrations among `ids`, with their tenant (the caller's scope decides which). */
export async function activeIntegrationsAmong(db: Kysely<DB>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('integrations')
    .select(['id', 'tenant_id'])
    .where('id', 'in', [...ids])
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
}

export async function markDeliveryOutcome(db: Kysely<DB>, id: string, succeeded: boolean) {
  await db
    .updateTable('integrations')
    .set(succeeded ? { last_success_at: sql<Date>`now()` } : { last_failure_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

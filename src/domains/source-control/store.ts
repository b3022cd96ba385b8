import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { ConnectionProvider } from '../../sources/types';
import type { SourceControlConnectionTable } from './tables';

export type ConnectionRow = Selectable<SourceControlConnectionTable>;

/** The columns safe to show: everything but the sealed secrets and the token hash. */
const PUBLIC_COLUMNS = [
  'id',
  'provider',
  'name',
  'base_url',
  'external_id',
  'account_name',
  'status',
  'status_reason',
  'created_at',
  'updated_at',
] as const;

export type PublicConnection = Pick<ConnectionRow, (typeof PUBLIC_COLUMNS)[number]> & {
  has_webhook_secret: boolean;
};

const hasSecret = sql<boolean>`webhook_secret_sealed IS NOT NULL`.as('has_webhook_secret');

export async function insertConnection(
  db: Kysely<DB>,
  row: Insertable<SourceControlConnectionTable>,
): Promise<PublicConnection> {
  return db
    .insertInto('source_control_connections')
    .values(row)
    .returning([...PUBLIC_COLUMNS, hasSecret])
    .executeTakeFirstOrThrow();
}

export async function listConnections(db: Kysely<DB>): Promise<PublicConnection[]> {
  return db
    .selectFrom('source_control_connections')
    .select([...PUBLIC_COLUMNS, hasSecret])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The full row, sealed secrets included: for the service only, never for a response. */
export async function findConnectionRow(
  db: Kysely<DB>,
  id: string,
): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('source_control_connections')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findByExternalId(
  db: Kysely<DB>,
  provider: ConnectionProvider,
  externalId: string,
): Promise<PublicConnection | undefined> {
  return db
    .selectFrom('source_control_connections')
    .select([...PUBLIC_COLUMNS, hasSecret])
    .where('provider', '=', provider)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function updateConnectionStatus(
  db: Kysely<DB>,
  id: string,
  status: ConnectionRow['status'],
  reason: string | null,
): Promise<void> {
  await db
    .updateTable('source_control_connections')
    .set({ status, status_reason: reason, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** The tenant's repositories imported through one connection, by provider id. */
export async function importedByExternalId(
  db: Kysely<DB>,
  connectionId: string,
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('repositories')
    .select(['id', 'external_id'])
    .where('connection_id', '=', connectionId)
    .where('external_id', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.external_id as string, row.id]));
}

// System queries (no tenant yet): push ingest finds the connections a delivery may come from.

export interface CandidateConnection {
  tenant_id: string;
  id: string;
  provider: ConnectionProvider;
  external_id: string | null;
  status: ConnectionRow['status'];
  webhook_secret_sealed: string | null;
  credentials_sealed: string | null;
}

const CANDIDATE_COLUMNS = [
  'tenant_id',
  'id',
  'provider',
  'external_id',
  'status',
  'webhook_secret_sealed',
  'credentials_sealed',
] as const;

/**
 * Connections of `provider` whose account id is one of `accountIds`, or that imported a
 * repository whose provider id is one of `repositoryIds`. The only cross-tenant read of
 * connections: the delivery's signature is then checked against each candidate's secret.
 */
export async function candidatesFor(
  system: Kysely<DB>,
  provider: ConnectionProvider,
  accountIds: string[],
  repositoryIds: string[],
): Promise<CandidateConnection[]> {
  if (accountIds.length === 0 && repositoryIds.length === 0) return [];
  return system
    .selectFrom('source_control_connections as c')
    .select(CANDIDATE_COLUMNS.map((column) => `c.${column}` as const))
    .where('c.provider', '=', provider)
    .where((eb) => {
      const ors = [];
      if (accountIds.length > 0) ors.push(eb('c.external_id', 'in', accountIds));
      if (repositoryIds.length > 0) {
        ors.push(
          eb.exists(
            eb
              .selectFrom('repositories as r')
              .select('r.id')
              .whereRef('r.tenant_id', '=', 'c.tenant_id')
              .whereRef('r.connection_id', '=', 'c.id')
              .where('r.provider', '=', provider)
              .where('r.external_id', 'in', repositoryIds),
          ),
        );
      }
      return eb.or(ors);
    })
    .limit(100)
    .execute();
}

/** Connections whose webhook secret hashes to `hash` (token-carrying deliveries). */
export async function candidatesByTokenHash(
  system: Kysely<DB>,
  provider: ConnectionProvider,
  hash: Buffer,
): Promise<CandidateConnection[]> {
  return system
    .selectFrom('source_control_connections')
    .select(CANDIDATE_COLUMNS)
    .where('provider', '=', provider)
    .where('webhook_token_hash', '=', hash)
    .limit(100)
    .execute();
}

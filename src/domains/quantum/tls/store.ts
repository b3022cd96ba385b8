import { type Kysely, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../../db/paging';
import type { DB } from '../../../db/schema';
import type { TlsObservationState } from '../tables';
import type { StoredCertificateFact } from './tables';

/** Queries of the watched TLS endpoints and their observations (docs/quantum.md#tls-observations). */

/** An endpoint as read, with its latest observation (null before the first probe). */
export interface EndpointRow {
  id: string;
  host: string;
  port: number;
  server_name: string | null;
  repository_id: string | null;
  interval_hours: number;
  next_probe_at: Date;
  last_probed_at: Date | null;
  created_at: Date;
  latest_observation_id: string | null;
  latest_observed_at: Date | null;
  latest_state: TlsObservationState | null;
  latest_hybrid_kex_classical_auth: boolean | null;
  latest_verdict_reason: string | null;
}

function endpointsWithLatest(db: Kysely<DB>) {
  return db
    .selectFrom('quantum_tls_endpoints as e')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('quantum_tls_observations as o')
          .select([
            'o.id',
            'o.observed_at',
            'o.state',
            'o.hybrid_kex_classical_auth',
            'o.verdict_reason',
          ])
          .whereRef('o.tenant_id', '=', 'e.tenant_id')
          .whereRef('o.endpoint_id', '=', 'e.id')
          .orderBy('o.observed_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(1)
          .as('latest'),
      (join) => join.onTrue(),
    )
    .select([
      'e.id',
      'e.host',
      'e.port',
      'e.server_name',
      'e.repository_id',
      'e.interval_hours',
      'e.next_probe_at',
      'e.last_probed_at',
      'e.created_at',
      'latest.id as latest_observation_id',
      'latest.observed_at as latest_observed_at',
      'latest.state as latest_state',
      'latest.hybrid_kex_classical_auth as latest_hybrid_kex_classical_auth',
      'latest.verdict_reason as latest_verdict_reason',
    ]);
}

export async function findEndpoint(db: Kysely<DB>, id: string): Promise<EndpointRow | undefined> {
  return endpointsWithLatest(db).where('e.id', '=', id).executeTakeFirst();
}

/** Every endpoint of the tenant (a bounded set), newest first. */
export async function listEndpoints(db: Kysely<DB>): Promise<EndpointRow[]> {
  return endpointsWithLatest(db).orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').execute();
}

export async function countEndpoints(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('quantum_tls_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises the tenant's endpoint writes that count (a create near the limit): two requests
 * cannot both see 199 endpoints and insert the 200th and 201st.
 */
export async function lockTenantEndpoints(db: Kysely<DB>, tenantId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`quantum-tls:${tenantId}`}, 0))`.execute(
    db,
  );
}

export interface EndpointValues {
  host: string;
  port: number;
  serverName: string | null;
  intervalHours: number;
  repositoryId: string | null;
}

/** Inserts the endpoint; false when the tenant already watches the same host, port and name. */
export async function insertEndpoint(
  db: Kysely<DB>,
  id: string,
  values: EndpointValues,
): Promise<boolean> {
  const row = await db
    .insertInto('quantum_tls_endpoints')
    .values({
      id,
      host: values.host,
      port: values.port,
      server_name: values.serverName,
      interval_hours: values.intervalHours,
      repository_id: values.repositoryId,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Changes the interval or the server name; false when the endpoint is not there. A new interval
 * counts from the last probe (or from now before the first one), so shortening it can make the
 * endpoint due at once. A server name another endpoint of the same host and port has is a
 * unique violation (isUniqueViolation), which the caller turns into a conflict.
 */
export async function updateEndpoint(
  db: Kysely<DB>,
  id: string,
  changes: {
    intervalHours?: number | undefined;
    serverName?: string | null | undefined;
    repositoryId?: string | null | undefined;
  },
): Promise<boolean> {
  const { intervalHours, serverName, repositoryId } = changes;
  const row = await db
    .updateTable('quantum_tls_endpoints')
    .set((eb) => ({
      ...(serverName !== undefined ? { server_name: serverName } : {}),
      ...(repositoryId !== undefined ? { repository_id: repositoryId } : {}),
      ...(intervalHours !== undefined
        ? {
            interval_hours: intervalHours,
            next_probe_at: sql<Date>`coalesce(${eb.ref('last_probed_at')}
              + make_interval(hours => ${intervalHours}), now())`,
          }
        : {}),
    }))
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteEndpoint(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db
    .deleteFrom('quantum_tls_endpoints')
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  // Its observations and notices go with it (foreign keys); its certificates are rows of the
  // inventory without a key to the endpoint, removed here.
  await db
    .deleteFrom('quantum_certificates')
    .where('provenance', '=', 'tls-observation')
    .where('endpoint_id', '=', id)
    .execute();
  return true;
}

/** An observation as read, with its endpoint's names. */
export interface ObservationRow {
  id: string;
  endpoint_id: string;
  host: string;
  port: number;
  server_name: string | null;
  address: string | null;
  observed_at: Date;
  state: TlsObservationState;
  protocol: string | null;
  cipher_suite: string | null;
  group_name: string | null;
  group_codepoint: number | null;
  supported_group_name: string | null;
  supported_group_codepoint: number | null;
  hybrid_kex_classical_auth: boolean;
  verdict_reason: string | null;
  certificates: StoredCertificateFact[];
  problem: string | null;
}

export async function listObservations(
  db: Kysely<DB>,
  filters: { state?: TlsObservationState | undefined; endpointId?: string | undefined },
  page: TakeSkip,
): Promise<TakeSkipPage<ObservationRow>> {
  let query = db.selectFrom('quantum_tls_observations as o');
  if (filters.state) query = query.where('o.state', '=', filters.state);
  if (filters.endpointId) query = query.where('o.endpoint_id', '=', filters.endpointId);
  return takeSkipPage(
    query,
    (filtered) =>
      filtered
        .innerJoin('quantum_tls_endpoints as e', (join) =>
          join.onRef('e.tenant_id', '=', 'o.tenant_id').onRef('e.id', '=', 'o.endpoint_id'),
        )
        .select([
          'o.id',
          'o.endpoint_id',
          'e.host',
          'e.port',
          'e.server_name',
          'o.address',
          'o.observed_at',
          'o.state',
          'o.protocol',
          'o.cipher_suite',
          'o.group_name',
          'o.group_codepoint',
          'o.supported_group_name',
          'o.supported_group_codepoint',
          'o.hybrid_kex_classical_auth',
          'o.verdict_reason',
          'o.certificates',
          'o.problem',
        ])
        .orderBy('o.observed_at', 'desc')
        .orderBy('o.id', 'desc'),
    page,
  );
}

import type { Kysely } from 'kysely';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { emitEvent, type TlsEndpointRef, type TlsVerdictState } from '../../events';
import type { TlsObservationState } from '../tables';
import type { StoredCertificateFact } from './tables';

/**
 * Recording one probe's outcome in the tenant's transaction: the observation, the endpoint's
 * certificates in the inventory, the next probe time, and the events alerting listens to
 * (docs/quantum.md#tls-observations, docs/events.md).
 */

/** What a probe learnt, ready to store. */
export interface ProbeOutcome {
  state: TlsObservationState;
  address: string | null;
  protocol: string | null;
  cipherSuite: string | null;
  group: { name: string; codepoint: number } | null;
  supportedGroup: { name: string; codepoint: number } | null;
  hybridKexClassicalAuth: boolean;
  verdictReason: string | null;
  problem: string | null;
  /** The chain as read, leaf first; empty when no handshake gave one. */
  certificates: StoredCertificateFact[];
}

export interface ProbedEndpoint {
  id: string;
  host: string;
  port: number;
  server_name: string | null;
}

/** A certificate this close to its end (or past it) raises its expiry event. */
export const EXPIRY_NOTICE_DAYS = 30;
/** Observations kept per endpoint; older ones are removed as new ones arrive. */
export const OBSERVATIONS_KEPT_PER_ENDPOINT = 1000;

const VERDICTS: readonly TlsVerdictState[] = ['vulnerable', 'hybrid', 'pq-kex', 'quantum-safe'];
const DAY_MS = 86_400_000;

function verdictOf(state: TlsObservationState | undefined): TlsVerdictState | null {
  return VERDICTS.find((verdict) => verdict === state) ?? null;
}

/**
 * The verdict of the endpoint's latest observation that had one: `unreachable` and `refused`
 * say nothing about the server's cryptography, so a probe that failed in between is passed over.
 */
async function previousVerdict(db: Kysely<DB>, endpointId: string) {
  const row = await db
    .selectFrom('quantum_tls_observations')
    .select('state')
    .where('endpoint_id', '=', endpointId)
    .where('state', 'in', VERDICTS)
    .orderBy('observed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return verdictOf(row?.state);
}

/** Stores the outcome; null when the endpoint was removed while it was probed. */
export async function recordObservation(
  db: Kysely<DB>,
  tenantId: string,
  endpoint: ProbedEndpoint,
  outcome: ProbeOutcome,
  now: Date,
): Promise<{ observationId: string; state: TlsObservationState } | null> {
  const locked = await db
    .selectFrom('quantum_tls_endpoints')
    .select(['id', 'interval_hours'])
    .where('id', '=', endpoint.id)
    .forUpdate()
    .executeTakeFirst();
  if (!locked) return null;
  const previous = await previousVerdict(db, endpoint.id);
  const observationId = newId();
  await insertObservation(db, observationId, endpoint.id, outcome, now);
  if (outcome.certificates.length > 0) {
    const before = await chainFingerprints(db, endpoint.id);
    await replaceCertificates(db, endpoint.id, outcome.certificates);
    const after = outcome.certificates.map((fact) => fact.fingerprintSha256).sort();
    if (before.join(',') !== after.join(',')) await announceChain(db, tenantId, endpoint.id);
  }
  const ref: TlsEndpointRef = {
    endpointId: endpoint.id,
    host: endpoint.host,
    port: endpoint.port,
    serverName: endpoint.server_name,
  };
  await noticeExpiringCertificates(db, tenantId, ref, observationId, outcome.certificates, now);
  const verdict = verdictOf(outcome.state);
  if (previous && verdict && previous !== verdict) {
    await emitEvent(db, 'quantum.tls_verdict_changed', {
      tenantId,
      data: {
        ...ref,
        observationId,
        previousState: previous,
        state: verdict,
        hybridKexClassicalAuth: outcome.hybridKexClassicalAuth,
        verdictReason: outcome.verdictReason,
        observedAt: now.toISOString(),
      },
    });
  }
  await db
    .updateTable('quantum_tls_endpoints')
    .set({
      last_probed_at: now,
      next_probe_at: new Date(now.getTime() + locked.interval_hours * 3_600_000),
    })
    .where('id', '=', endpoint.id)
    .execute();
  await pruneObservations(db, endpoint.id);
  return { observationId, state: outcome.state };
}

async function insertObservation(
  db: Kysely<DB>,
  id: string,
  endpointId: string,
  outcome: ProbeOutcome,
  now: Date,
): Promise<void> {
  await db
    .insertInto('quantum_tls_observations')
    .values({
      id,
      endpoint_id: endpointId,
      observed_at: now,
      state: outcome.state,
      hybrid_kex_classical_auth: outcome.hybridKexClassicalAuth,
      protocol: outcome.protocol,
      cipher_suite: outcome.cipherSuite,
      group_name: outcome.group?.name ?? null,
      group_codepoint: outcome.group?.codepoint ?? null,
      supported_group_name: outcome.supportedGroup?.name ?? null,
      supported_group_codepoint: outcome.supportedGroup?.codepoint ?? null,
      verdict_reason: outcome.verdictReason,
      problem: outcome.problem,
      address: outcome.address,
      certificates: JSON.stringify(outcome.certificates),
    })
    .execute();
}

async function chainFingerprints(db: Kysely<DB>, endpointId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('quantum_certificates')
    .select('fingerprint_sha256')
    .where('provenance', '=', 'tls-observation')
    .where('endpoint_id', '=', endpointId)
    .execute();
  return rows.map((row) => row.fingerprint_sha256).sort();
}

/**
 * Another chain on an endpoint linked to a repository changes that repository's quantum facts
 * (its certificates): policies are told, as for a scan's inventory.
 */
async function announceChain(db: Kysely<DB>, tenantId: string, endpointId: string) {
  const row = await db
    .selectFrom('quantum_tls_endpoints')
    .select('repository_id')
    .where('id', '=', endpointId)
    .executeTakeFirst();
  if (!row?.repository_id) return;
  await emitEvent(db, 'quantum.inventory_changed', {
    tenantId,
    data: { repositoryId: row.repository_id, packageIds: null },
  });
}

/** The endpoint's certificates in the inventory become the chain just read. */
async function replaceCertificates(
  db: Kysely<DB>,
  endpointId: string,
  certificates: readonly StoredCertificateFact[],
): Promise<void> {
  await db
    .deleteFrom('quantum_certificates')
    .where('provenance', '=', 'tls-observation')
    .where('endpoint_id', '=', endpointId)
    .execute();
  await db
    .insertInto('quantum_certificates')
    .values(
      certificates.map((fact) => ({
        id: newId(),
        provenance: 'tls-observation' as const,
        endpoint_id: endpointId,
        subject: fact.subject,
        issuer: fact.issuer,
        serial_number: fact.serialNumber,
        not_before: new Date(fact.notBefore),
        not_after: new Date(fact.notAfter),
        key_algorithm: fact.keyAlgorithm,
        key_size: fact.keySize,
        curve: fact.curve,
        signature_algorithm: fact.signatureAlgorithm,
        fingerprint_sha256: fact.fingerprintSha256,
        classification: fact.classification,
        self_signed: fact.selfSigned,
        is_ca: fact.isCa,
        container: 'tls',
      })),
    )
    .execute();
}

/**
 * The chain's certificates within EXPIRY_NOTICE_DAYS of their end (or past it) that this
 * endpoint has not been noticed for: one notice row each, and one event per new row.
 */
async function noticeExpiringCertificates(
  db: Kysely<DB>,
  tenantId: string,
  ref: TlsEndpointRef,
  observationId: string,
  certificates: readonly StoredCertificateFact[],
  now: Date,
): Promise<void> {
  const horizon = now.getTime() + EXPIRY_NOTICE_DAYS * DAY_MS;
  const expiring = certificates.filter((fact) => Date.parse(fact.notAfter) <= horizon);
  if (expiring.length === 0) return;
  const noticed = await db
    .insertInto('quantum_tls_certificate_notices')
    .values(
      expiring.map((fact) => ({
        endpoint_id: ref.endpointId,
        fingerprint_sha256: fact.fingerprintSha256,
        not_after: new Date(fact.notAfter),
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .returning('fingerprint_sha256')
    .execute();
  const fresh = new Set(noticed.map((row) => row.fingerprint_sha256));
  for (const fact of expiring.filter((f) => fresh.has(f.fingerprintSha256))) {
    const left = Date.parse(fact.notAfter) - now.getTime();
    await emitEvent(db, 'quantum.tls_certificate_expiring', {
      tenantId,
      data: {
        ...ref,
        observationId,
        subject: fact.subject,
        issuer: fact.issuer,
        serialNumber: fact.serialNumber,
        fingerprintSha256: fact.fingerprintSha256,
        notAfter: fact.notAfter,
        daysLeft: Math.floor(left / DAY_MS),
        expired: left < 0,
      },
    });
  }
}

async function pruneObservations(db: Kysely<DB>, endpointId: string): Promise<void> {
  await db
    .deleteFrom('quantum_tls_observations')
    .where('endpoint_id', '=', endpointId)
    .where(
      'id',
      'in',
      db
        .selectFrom('quantum_tls_observations')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .orderBy('observed_at', 'desc')
        .orderBy('id', 'desc')
        .offset(OBSERVATIONS_KEPT_PER_ENDPOINT),
    )
    .execute();
}

import type { Kysely } from 'kysely';
import type { TakeSkip } from '../../../db/paging';
import type { DB } from '../../../db/schema';
import type { TlsObservationState } from '../tables';
import { listObservations, type ObservationRow } from './store';
import type { StoredCertificateFact } from './tables';

/** TLS observations as the API shows them (docs/quantum.md#tls-observations). */

export interface NamedGroupView {
  name: string;
  codepoint: number;
}

export interface ObservedCertificate extends StoredCertificateFact {
  /** notAfter is in the past now (not when it was observed). */
  expired: boolean;
}

export interface TlsObservationView {
  observationId: string;
  endpointId: string;
  endpoint: { host: string; port: number; serverName: string | null };
  address: string | null;
  observedAtUtc: string;
  state: TlsObservationState;
  protocol: string | null;
  cipherSuite: string | null;
  keyExchangeGroup: NamedGroupView | null;
  supportedGroup: NamedGroupView | null;
  hybridKexClassicalAuth: boolean;
  verdictReason: string | null;
  certificates: ObservedCertificate[];
  problem: string | null;
}

function group(name: string | null, codepoint: number | null): NamedGroupView | null {
  return name !== null && codepoint !== null ? { name, codepoint } : null;
}

export function presentObservation(row: ObservationRow, now: Date): TlsObservationView {
  return {
    observationId: row.id,
    endpointId: row.endpoint_id,
    endpoint: { host: row.host, port: row.port, serverName: row.server_name },
    address: row.address,
    observedAtUtc: row.observed_at.toISOString(),
    state: row.state,
    protocol: row.protocol,
    cipherSuite: row.cipher_suite,
    keyExchangeGroup: group(row.group_name, row.group_codepoint),
    supportedGroup: group(row.supported_group_name, row.supported_group_codepoint),
    hybridKexClassicalAuth: row.hybrid_kex_classical_auth,
    verdictReason: row.verdict_reason,
    certificates: row.certificates.map((fact) => ({
      ...fact,
      expired: Date.parse(fact.notAfter) < now.getTime(),
    })),
    problem: row.problem,
  };
}

export async function observationPage(
  db: Kysely<DB>,
  filters: { state?: TlsObservationState | undefined; endpointId?: string | undefined },
  page: TakeSkip,
): Promise<{ items: TlsObservationView[]; total: number }> {
  const { rows, total } = await listObservations(db, filters, page);
  const now = new Date();
  return { items: rows.map((row) => presentObservation(row, now)), total };
}

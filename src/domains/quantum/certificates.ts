import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema';
import type {
  CertificateProvenance,
  QuantumCertificateTable,
  QuantumClassificationName,
} from './tables';

/**
 * The certificates of a repository's inventory (docs/quantum.md#certificates-and-keys-in-repositories):
 * those its latest scan found in its files (provenance repository-file), and the chains last
 * observed on the TLS endpoints linked to it (tls-observation). A bounded collection (a scan
 * reads at most 500 key and certificate files), so no paging.
 */

type CertificateRow = Selectable<QuantumCertificateTable>;

export function presentCertificate(row: CertificateRow, now = new Date()) {
  return {
    certificateId: row.id,
    subject: row.subject,
    issuer: row.issuer,
    serialNumber: row.serial_number,
    notBefore: row.not_before.toISOString(),
    notAfter: row.not_after.toISOString(),
    keyAlgorithm: row.key_algorithm,
    keySize: row.key_size,
    curve: row.curve,
    signatureAlgorithm: row.signature_algorithm,
    fingerprintSha256: row.fingerprint_sha256,
    file: row.file,
    line: row.line,
    endpointId: row.endpoint_id,
    provenance: row.provenance,
    classification: row.classification,
    expired: row.not_after.getTime() < now.getTime(),
    selfSigned: row.self_signed,
    isCa: row.is_ca,
  };
}

export async function listRepositoryCertificates(
  db: Kysely<DB>,
  repositoryId: string,
  filter: {
    classification?: QuantumClassificationName | undefined;
    provenance?: CertificateProvenance | undefined;
  },
): Promise<CertificateRow[]> {
  const linkedEndpoints = db
    .selectFrom('quantum_tls_endpoints')
    .select('id')
    .where('repository_id', '=', repositoryId);
  let query = db
    .selectFrom('quantum_certificates')
    .selectAll()
    .where((eb) =>
      eb.or([eb('repository_id', '=', repositoryId), eb('endpoint_id', 'in', linkedEndpoints)]),
    );
  if (filter.classification) query = query.where('classification', '=', filter.classification);
  if (filter.provenance) query = query.where('provenance', '=', filter.provenance);
  return query.orderBy('file').orderBy('line').orderBy('id').limit(5000).execute();
}

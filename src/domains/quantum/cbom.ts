import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { CbomDocument, CbomInput } from '../../sbom/cbom-types';
import { writeCbom } from '../../sbom/cbom-write';
import { listRepositoryCertificates } from './certificates';

/**
 * A repository's cryptography bill of materials (docs/quantum.md#the-cbom-policies-and-the-dashboard):
 * CycloneDX 1.6 built from the stored inventory (the findings the latest scan saw, the
 * symmetric algorithms beside them, the certificates of its files and linked endpoints, and the
 * latest observation of each linked endpoint). Null when the repository is not the tenant's.
 */
export async function repositoryCbom(
  db: Kysely<DB>,
  repositoryId: string,
  tool: { name: string; version: string },
  now = new Date(),
): Promise<CbomDocument | null> {
  const repository = await db
    .selectFrom('repositories')
    .select(['id', 'full_name'])
    .where('id', '=', repositoryId)
    .executeTakeFirst();
  if (!repository) return null;
  const summary = await db
    .selectFrom('quantum_scan_summaries')
    .select('scan_id')
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
  const findings = await db
    .selectFrom('quantum_findings')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('present', '=', true)
    .execute();
  const algorithms = await db
    .selectFrom('quantum_algorithm_uses')
    .select(['algorithm', 'kind', 'file', 'line'])
    .where('repository_id', '=', repositoryId)
    .execute();
  const certificates = await listRepositoryCertificates(db, repositoryId, {});
  const input: CbomInput = {
    repository: { id: repository.id, name: repository.full_name, scanId: summary?.scan_id ?? null },
    generatedAt: now,
    tool,
    findings: findings.map((f) => ({
      findingId: f.id,
      file: f.file,
      line: f.line,
      primitive: f.primitive,
      algorithm: f.algorithm,
      curve: f.curve,
      keySize: f.key_size,
      classification: f.classification,
      api: f.api,
      purl: f.purl,
      snippet: f.snippet,
    })),
    algorithms: algorithms.flatMap((a) =>
      isSymmetricKind(a.kind) ? [{ ...a, kind: a.kind }] : [],
    ),
    certificates: certificates.map((c) => ({
      certificateId: c.id,
      subject: c.subject,
      issuer: c.issuer,
      serialNumber: c.serial_number,
      notBefore: c.not_before,
      notAfter: c.not_after,
      keyAlgorithm: c.key_algorithm,
      keySize: c.key_size,
      curve: c.curve,
      signatureAlgorithm: c.signature_algorithm,
      fingerprintSha256: c.fingerprint_sha256,
      file: c.file,
      line: c.line,
      provenance: c.provenance,
      endpoint: c.endpoint_id,
    })),
    protocols: await linkedProtocols(db, repositoryId),
  };
  return writeCbom(input);
}

const SYMMETRIC_KINDS = ['block-cipher', 'stream-cipher', 'ae', 'hash', 'mac', 'kdf'] as const;

function isSymmetricKind(kind: string): kind is (typeof SYMMETRIC_KINDS)[number] {
  return (SYMMETRIC_KINDS as readonly string[]).includes(kind);
}

/** The latest observation of each TLS endpoint linked to the repository. */
async function linkedProtocols(
  db: Kysely<DB>,
  repositoryId: string,
): Promise<CbomInput['protocols']> {
  const rows = await db
    .selectFrom('quantum_tls_endpoints as e')
    .innerJoin('quantum_tls_observations as o', 'o.endpoint_id', 'e.id')
    .select(['e.host', 'e.port', 'o.protocol', 'o.cipher_suite', 'o.group_name', 'o.observed_at'])
    .where('e.repository_id', '=', repositoryId)
    .where('o.protocol', 'is not', null)
    .orderBy('o.observed_at', 'desc')
    .execute();
  const latest = new Map<string, CbomInput['protocols'][number]>();
  for (const row of rows) {
    const endpoint = `${row.host}:${row.port}`;
    if (latest.has(endpoint)) continue;
    latest.set(endpoint, {
      endpoint,
      version: row.protocol,
      cipherSuite: row.cipher_suite,
      group: row.group_name,
    });
  }
  return [...latest.values()];
}

import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import type { DependencyFacts, QuantumCertificateFact, QuantumFindingFact } from './definition';

/**
 * The `quantum` facts of one repository (docs/policies.md#repository-conditions): its quantum
 * findings and certificates as the quantum inventory stores them (docs/quantum.md), read through
 * the schema type (policies import no quantum module: quantum announces its changes with
 * `quantum.inventory_changed`, one of the fact events). Three statements per evaluation, run
 * only when an applicable policy reads `quantum`.
 */

export type QuantumFacts = DependencyFacts['quantum'];

/** What a dependency's facts carry: quantum facts are the repository's, read by no dependency. */
export const NO_QUANTUM_FACTS: QuantumFacts = {
  known: false,
  findings: [],
  certificates: [],
  vulnerableCount: 0,
  classifications: [],
  algorithms: [],
  weakCertificates: 0,
};

/**
 * What a repository condition's violation names as its package (migration 0054): the
 * repository's own code, one catalogue entry for every repository.
 */
export const REPOSITORY_SUBJECT = {
  packageId: '00000000-0000-4000-8000-00000000c0de',
  version: '',
  ecosystem: 'first-party',
  packageName: 'first-party code',
  packageUrl: 'pkg:generic/driftwatch/first-party-code',
} as const;

const VULNERABLE = new Set(['weak', 'deprecated-2030', 'disallowed-2035']);
/** Triage statuses that take a finding out of the counts (as for exposures). */
const NOT_COUNTED = new Set(['not_affected', 'false_positive']);

async function findingFacts(db: Kysely<DB>, repositoryId: string): Promise<QuantumFindingFact[]> {
  const rows = await db
    .selectFrom('quantum_findings')
    .select([
      'id',
      'primitive',
      'algorithm',
      'curve',
      'key_size',
      'classification',
      'severity',
      'file',
      'line',
      'language',
      'purl',
      // An acceptance past its expiry reads open (the quantum routes reopen it on their reads).
      sql<string>`CASE WHEN status = 'accepted_risk' AND accepted_until <= now() THEN 'open'
        ELSE status END`.as('status'),
    ])
    .where('repository_id', '=', repositoryId)
    .where('present', '=', true)
    .orderBy('file')
    .orderBy('line')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    primitive: row.primitive,
    algorithm: row.algorithm,
    curve: row.curve ?? '',
    keySize: row.key_size ?? 0,
    classification: row.classification,
    severity: row.severity,
    status: row.status,
    file: row.file ?? '',
    line: row.line ?? 0,
    language: row.language ?? '',
    purl: row.purl ?? '',
  }));
}

async function certificateFacts(
  db: Kysely<DB>,
  repositoryId: string,
  now: Date,
): Promise<QuantumCertificateFact[]> {
  const linkedEndpoints = db
    .selectFrom('quantum_tls_endpoints')
    .select('id')
    .where('repository_id', '=', repositoryId);
  const rows = await db
    .selectFrom('quantum_certificates')
    .select([
      'id',
      'provenance',
      'subject',
      'key_algorithm',
      'key_size',
      'curve',
      'signature_algorithm',
      'classification',
      'not_after',
    ])
    .where((eb) =>
      eb.or([eb('repository_id', '=', repositoryId), eb('endpoint_id', 'in', linkedEndpoints)]),
    )
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    provenance: row.provenance,
    subject: row.subject,
    keyAlgorithm: row.key_algorithm,
    keySize: row.key_size ?? 0,
    curve: row.curve ?? '',
    signatureAlgorithm: row.signature_algorithm,
    classification: row.classification,
    notAfter: row.not_after.toISOString(),
    notAfterYear: row.not_after.getUTCFullYear(),
    expired: row.not_after.getTime() < now.getTime(),
  }));
}

/** The repository's quantum facts (the group `quantum`). */
export async function repositoryQuantumFacts(
  db: Kysely<DB>,
  repositoryId: string,
  now: Date,
): Promise<QuantumFacts> {
  const summary = await db
    .selectFrom('quantum_scan_summaries')
    .select('scan_id')
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
  const findings = await findingFacts(db, repositoryId);
  const certificates = await certificateFacts(db, repositoryId, now);
  const counted = findings.filter((f) => !NOT_COUNTED.has(f.status));
  return {
    known: summary !== undefined,
    findings,
    certificates,
    vulnerableCount: counted.filter((f) => VULNERABLE.has(f.classification)).length,
    classifications: [...new Set(counted.map((f) => f.classification))].sort(),
    algorithms: [...new Set(counted.map((f) => f.algorithm))].sort(),
    weakCertificates: certificates.filter((c) => VULNERABLE.has(c.classification)).length,
  };
}

import { type Kysely, sql } from 'kysely';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { emitEvent } from '../events';
import type { QuantumInventory } from './inventory';

/**
 * Writes a scan's inventory (docs/quantum.md), in the caller's tenant transaction (the scan's
 * completion): findings are matched to the stored ones by key, so a rescan keeps the triage of
 * an unchanged finding and moves it to this scan; findings the scan no longer saw stay, not
 * present; the repository's file certificates, algorithm uses and summary are replaced.
 *
 * No `quantum.inventory_changed` here: the inventory is written in the transaction that switches
 * the scan's dependencies, and the scan's own evaluation (queued once its exposures are matched)
 * reads it. Announcing it as well queued a second evaluation of the whole repository that found
 * nothing new. `changed` still says whether the inventory moved (the scan log names it).
 */
export async function saveInventory(
  db: Kysely<DB>,
  target: { tenantId: string; repositoryId: string; scanId: string; correlationId?: string | null },
  inventory: QuantumInventory,
): Promise<{ findings: number; certificates: number; changed: boolean }> {
  const { repositoryId, scanId } = target;
  const before = await inventoryDigest(db, repositoryId);
  await saveFindings(db, target, inventory.findings);
  await db
    .deleteFrom('quantum_certificates')
    .where('repository_id', '=', repositoryId)
    .where('provenance', '=', 'repository-file')
    .execute();
  for (let i = 0; i < inventory.certificates.length; i += 500) {
    await db
      .insertInto('quantum_certificates')
      .values(
        inventory.certificates.slice(i, i + 500).map((c) => ({
          id: newId(),
          provenance: 'repository-file' as const,
          repository_id: repositoryId,
          scan_id: scanId,
          endpoint_id: null,
          file: c.file,
          line: c.line ?? null,
          subject: c.subject,
          issuer: c.issuer,
          serial_number: c.serialNumber,
          not_before: new Date(c.notBefore),
          not_after: new Date(c.notAfter),
          key_algorithm: c.keyAlgorithm,
          key_size: c.keySize ?? null,
          curve: c.curve ?? c.parameterSet ?? null,
          signature_algorithm: c.signatureAlgorithm,
          fingerprint_sha256: c.fingerprintSha256,
          classification: c.classification,
          self_signed: c.selfSigned,
          is_ca: c.isCa,
          container: c.container ?? null,
        })),
      )
      .execute();
  }
  await saveAlgorithmsAndSummary(db, target, inventory);
  const changed = (await inventoryDigest(db, repositoryId)) !== before;
  return {
    findings: inventory.findings.length,
    certificates: inventory.certificates.length,
    changed,
  };
}

/** The algorithm uses (replaced) and the scan's summary of what it read. */
async function saveAlgorithmsAndSummary(
  db: Kysely<DB>,
  target: { repositoryId: string; scanId: string },
  inventory: QuantumInventory,
): Promise<void> {
  const { repositoryId, scanId } = target;
  await db.deleteFrom('quantum_algorithm_uses').where('repository_id', '=', repositoryId).execute();
  for (let i = 0; i < inventory.algorithms.length; i += 1000) {
    await db
      .insertInto('quantum_algorithm_uses')
      .values(
        inventory.algorithms.slice(i, i + 1000).map((a) => ({
          repository_id: repositoryId,
          scan_id: scanId,
          algorithm: a.algorithm,
          kind: a.kind,
          file: a.file,
          line: a.line,
          language: a.language,
        })),
      )
      .execute();
  }
  await db
    .insertInto('quantum_scan_summaries')
    .values({
      repository_id: repositoryId,
      scan_id: scanId,
      files_read: inventory.filesRead,
      bytes_read: String(inventory.bytesRead),
      files_skipped: inventory.filesSkipped,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'repository_id']).doUpdateSet({
        scan_id: scanId,
        files_read: inventory.filesRead,
        bytes_read: String(inventory.bytesRead),
        files_skipped: inventory.filesSkipped,
        scanned_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

/** Announces a change of the repository's quantum facts (one of the policies' fact events). */
export async function emitInventoryChanged(
  db: Kysely<DB>,
  target: { tenantId: string; repositoryId: string; correlationId?: string | null },
): Promise<void> {
  await emitEvent(db, 'quantum.inventory_changed', {
    tenantId: target.tenantId,
    data: { repositoryId: target.repositoryId, packageIds: null },
    correlationId: target.correlationId ?? null,
  });
}

/**
 * What the policies' quantum facts of a scan's making are, as one digest: the present findings
 * and the file certificates with every field a condition reads (statuses change by triage only).
 */
async function inventoryDigest(db: Kysely<DB>, repositoryId: string): Promise<string> {
  const result = await sql<{ digest: string }>`
    SELECT md5(
      coalesce((SELECT string_agg(concat_ws(':', finding_key, line, curve, key_size,
          classification, severity, purl), ',' ORDER BY finding_key)
        FROM quantum_findings WHERE repository_id = ${repositoryId} AND present), '')
      || '|' ||
      coalesce((SELECT string_agg(concat_ws(':', fingerprint_sha256, file, line, classification),
          ',' ORDER BY fingerprint_sha256, file, line)
        FROM quantum_certificates
        WHERE repository_id = ${repositoryId} AND provenance = 'repository-file'), '')
    ) AS digest`.execute(db);
  return result.rows[0]?.digest ?? '';
}

async function saveFindings(
  db: Kysely<DB>,
  target: { repositoryId: string; scanId: string },
  findings: QuantumInventory['findings'],
): Promise<void> {
  const { repositoryId, scanId } = target;
  await db
    .updateTable('quantum_findings')
    .set({ present: false })
    .where('repository_id', '=', repositoryId)
    .execute();
  for (let i = 0; i < findings.length; i += 500) {
    const rows = findings.slice(i, i + 500).map((f) => ({
      id: newId(),
      repository_id: repositoryId,
      finding_key: f.key,
      scan_id: scanId,
      first_seen_scan_id: scanId,
      file: f.file,
      line: f.line,
      language: f.language,
      primitive: f.primitive,
      algorithm: f.algorithm,
      curve: f.curve,
      key_size: f.keySize,
      classification: f.classification,
      severity: f.severity,
      recommendation: f.recommendation,
      snippet: f.snippet,
      api: f.api,
      purl: f.purl,
      justification: null,
      status_reason: null,
      accepted_until: null,
      status_changed_at: null,
      status_changed_by_token_id: null,
    }));
    await db
      .insertInto('quantum_findings')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'repository_id', 'finding_key']).doUpdateSet((eb) => ({
          scan_id: eb.ref('excluded.scan_id'),
          line: eb.ref('excluded.line'),
          curve: eb.ref('excluded.curve'),
          key_size: eb.ref('excluded.key_size'),
          classification: eb.ref('excluded.classification'),
          severity: eb.ref('excluded.severity'),
          recommendation: eb.ref('excluded.recommendation'),
          purl: eb.ref('excluded.purl'),
          present: true,
          updated_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }
}

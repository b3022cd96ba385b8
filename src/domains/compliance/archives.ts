import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Principal } from '../../core/principal';
import { conflict, notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { defineJob } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import type { JobDeps } from '../job-deps';
import { buildArchive } from './archive';
import type { Period } from './period';
import { allControlEvidence } from './service';
import { openSigningKey } from './signing';
import {
  type ArchiveRow,
  archiveBytes,
  claimArchive,
  findArchive,
  finishArchive,
  insertArchive,
} from './store';

/** The archive job's contract (docs/compliance.md#evidence-archives). */
export const GENERATE_ARCHIVE = defineJob({
  name: 'compliance.generate-archive',
  payload: Type.Object({ archiveId: Type.String({ format: 'uuid' }) }),
  expireInSeconds: 900,
  retryLimit: 2,
});

/** POST /api/v1/compliance/evidence-archives: the row and its job, in the request's transaction. */
export async function requestArchive(
  db: Kysely<DB>,
  principal: Principal,
  period: Period,
  correlationId: string,
): Promise<ArchiveRow> {
  const archive = await insertArchive(db, { id: newId(), period, tokenId: principal.tokenId });
  await enqueue(db, GENERATE_ARCHIVE, {
    tenantId: principal.tenantId,
    data: { archiveId: archive.id },
    correlationId,
  });
  return archive;
}

/**
 * The job: claims the archive, computes every control's evidence in one tenant transaction,
 * builds and signs the zip, stores it; a failure is the archive's `failed` with the reason.
 */
export async function generateArchive(
  deps: JobDeps,
  tenantId: string,
  archiveId: string,
): Promise<void> {
  try {
    const key = await openSigningKey(deps.database.system, deps.secretBox);
    const done = await withTenant(
      deps.database,
      tenantId,
      async (db) => {
        const archive = await claimArchive(db, archiveId);
        if (!archive) return false;
        const period = { start: archive.period_start, end: archive.period_end };
        const generatedAt = new Date();
        const controls = await allControlEvidence(db, period, generatedAt);
        const built = buildArchive({ archiveId, tenantId, period, generatedAt }, controls, key);
        await finishArchive(db, archiveId, {
          archive: built.zip,
          sha256: built.sha256,
          manifestSha256: built.manifestSha256,
          keyId: key.keyId,
        });
        return true;
      },
      // One snapshot for every control: the archive's figures agree with each other.
      'repeatable read',
    );
    if (done) deps.log('compliance evidence archive generated', { tenantId, archiveId });
  } catch (error) {
    deps.log('compliance evidence archive failed', { tenantId, archiveId, err: error });
    const message = `generation failed: ${(error as Error).message ?? 'unknown error'}`;
    await withTenant(deps.database, tenantId, (db) =>
      finishArchive(db, archiveId, { error: message.slice(0, 2000) }),
    );
  }
}

/** A ready archive's zip; 404 unknown (or another tenant's), 409 while not ready. */
export async function archiveDownload(
  db: Kysely<DB>,
  archiveId: string,
): Promise<{ row: ArchiveRow; zip: Buffer }> {
  const row = await findArchive(db, archiveId);
  if (!row) throw notFound('The evidence archive');
  if (row.state !== 'ready') {
    throw conflict(
      row.state === 'failed'
        ? `The evidence archive failed (${row.error ?? 'unknown reason'}); generate a new one.`
        : `The evidence archive is ${row.state}, not generated yet.`,
    );
  }
  const zip = await archiveBytes(db, archiveId);
  if (!zip) throw conflict('The evidence archive has no content.');
  return { row, zip };
}

export function presentArchive(row: ArchiveRow) {
  return {
    archiveId: row.id,
    state: row.state,
    periodStartUtc: row.period_start.toISOString(),
    periodEndUtc: row.period_end.toISOString(),
    requestedByTokenId: row.requested_by_token_id,
    archiveBytes: row.archive_bytes,
    archiveSha256: row.archive_sha256,
    manifestSha256: row.manifest_sha256,
    signingKeyId: row.signing_key_id,
    error: row.error,
    createdAtUtc: row.created_at.toISOString(),
    startedAtUtc: row.started_at?.toISOString() ?? null,
    finishedAtUtc: row.finished_at?.toISOString() ?? null,
    downloadPath:
      row.state === 'ready' ? `/api/v1/compliance/evidence-archives/${row.id}/download` : null,
  };
}

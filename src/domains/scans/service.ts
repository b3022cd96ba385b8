import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { conflict, notFound } from '../../core/problem';
import type { DB } from '../../db/schema';
import type { ExtractedFile } from '../../ecosystems/extract-tree';
import { defineJob, type PayloadOf } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import { emitEvent } from '../events';
import {
  deleteGenerationChunk,
  insertGenerationRows,
  switchGeneration,
} from './dependencies/dependency-store';
import { recordFirstSeen } from './dependencies/first-seen';
import {
  countDependencies,
  DELETE_CHUNK_ROWS,
  dependencyChunks,
  STORE_CHUNK_ROWS,
} from './dependencies/generations';
import { isFinal } from './lifecycle';
import {
  appendScanLog,
  cancelScan,
  findActiveScan,
  findScan,
  insertQueuedScan,
  type ScanRow,
} from './store';
import type { ScanTrigger } from './tables';

export type { ScanRow } from './store';

/**
 * The job that runs one scan (registered by `scanJobs` in ./jobs.ts). Its expiry is read from the
 * checkout timeout there; this one is a floor.
 */
export const RUN_SCAN = defineJob({
  name: 'scans.run',
  payload: Type.Object({ scanId: Type.String(), repositoryId: Type.String() }),
  expireInSeconds: 900,
  retryLimit: 2,
});

export type RunScanJob = PayloadOf<typeof RUN_SCAN>;

export interface QueueScanInput {
  tenantId: string;
  repositoryId: string;
  trigger: ScanTrigger;
  correlationId: string | null;
  /** Defaults to the repository's default branch. */
  branch?: string | null;
}

/**
 * Queues a scan of a repository: a `queued` scan row and its job, in the caller's transaction.
 * When the repository already has a queued or running scan, that scan is returned with
 * `created: false` (the route answers 409; push ingest treats it as "already queued").
 * Throws 404 when the repository is not the tenant's.
 */
export async function queueScan(
  db: Kysely<DB>,
  input: QueueScanInput,
): Promise<{ scan: ScanRow; created: boolean }> {
  const repository = await db
    .selectFrom('repositories')
    .select(['id', 'default_branch'])
    .where('id', '=', input.repositoryId)
    .executeTakeFirst();
  if (!repository) throw notFound('The repository');

  const existing = await findActiveScan(db, input.repositoryId);
  if (existing) return { scan: existing, created: false };

  // The partial unique index `scans_one_active` settles a race between two triggers: the loser
  // inserts nothing (it waits for the winner's commit) and returns the winner's scan.
  const inserted = await insertQueuedScan(db, {
    repositoryId: input.repositoryId,
    trigger: input.trigger,
    branch: input.branch || repository.default_branch,
  });
  if (!inserted) {
    const winner = await findActiveScan(db, input.repositoryId);
    if (winner) return { scan: winner, created: false };
    throw new Error('scan insert conflicted but no active scan was found');
  }
  await enqueue(db, RUN_SCAN, {
    tenantId: input.tenantId,
    data: { scanId: inserted.id, repositoryId: input.repositoryId },
    correlationId: input.correlationId,
  });
  return { scan: inserted, created: true };
}

/**
 * Cancels a queued or running scan (a running run stops at its next step): 404 for an unknown
 * scan, 409 for a finished one. The cancel and its log line are written in the caller's
 * transaction.
 */
export async function requestScanCancel(
  db: Kysely<DB>,
  scanId: string,
  requestId: string,
): Promise<ScanRow> {
  const cancelled = await cancelScan(db, scanId);
  if (!cancelled) {
    const scan = await findScan(db, scanId);
    if (!scan) throw notFound('The scan');
    if (isFinal(scan.state)) {
      throw conflict(`The scan has already finished (${scan.state}).`);
    }
    throw conflict(`The scan is ${scan.state} and cannot be cancelled.`);
  }
  await appendScanLog(db, {
    scanId,
    level: 'warn',
    step: 'cancel',
    message: `cancelled by request ${requestId}`,
  });
  return cancelled;
}

export interface StoreDependenciesInput {
  tenantId: string;
  repositoryId: string;
  scanId: string;
  files: ExtractedFile[];
  correlationId?: string | null;
}

export interface StoredDependencies {
  dependencyCount: number;
  fileCount: number;
  countsByEcosystem: Record<string, number>;
}

/**
 * Replaces a repository's dependencies with what the files list (an SBOM import's synthetic
 * files, or a small scan in tests) in the caller's transaction, all or nothing: the rows as a
 * new generation, the switch, the replaced generation's deletion, `dependencies.changed`. A
 * scan's worker stores in chunks instead (./generations.ts), switching with `switchToGeneration`.
 */
export async function storeScanDependencies(
  db: Kysely<DB>,
  input: StoreDependenciesInput,
): Promise<StoredDependencies> {
  const target = {
    tenantId: input.tenantId,
    repositoryId: input.repositoryId,
    scanId: input.scanId,
  };
  for (const chunk of dependencyChunks(input.files, STORE_CHUNK_ROWS)) {
    await insertGenerationRows(db, target, chunk);
  }
  const previous = await switchToGeneration(db, input);
  if (previous) while ((await deleteGenerationChunk(db, previous, DELETE_CHUNK_ROWS)) > 0);
  return countDependencies(input.files);
}

/**
 * Makes the stored generation `input.scanId` the repository's current dependencies and emits
 * `dependencies.changed`, in the caller's transaction. Returns the replaced generation (to be
 * deleted; it is retired, so the recovery sweep deletes it if the caller does not).
 */
export async function switchToGeneration(
  db: Kysely<DB>,
  input: Omit<StoreDependenciesInput, 'files'>,
): Promise<string | null> {
  const previous = await switchGeneration(db, {
    repositoryId: input.repositoryId,
    scanId: input.scanId,
  });
  await recordFirstSeen(db, input.repositoryId, input.scanId);
  await emitEvent(db, 'dependencies.changed', {
    tenantId: input.tenantId,
    correlationId: input.correlationId ?? null,
    data: { repositoryId: input.repositoryId, scanId: input.scanId },
  });
  return previous;
}

export { findScan };

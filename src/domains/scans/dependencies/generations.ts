import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/connection';
import type { DB } from '../../../db/schema';
import { withTenant } from '../../../db/tenant-scope';
import { isDependency } from '../../../ecosystems/dependency-list';
import type { ExtractedFile } from '../../../ecosystems/extract-tree';
import {
  beginGeneration,
  deleteGenerationChunk,
  type FileDependency,
  findLeftoverGenerations,
  insertGenerationRows,
  isGenerationStoring,
} from './dependency-store';

/**
 * Storing a scan's dependencies without a long transaction (docs/repositories-and-scans.md,
 * "Storing dependencies"): the rows go in as a new generation, in chunks of a few hundred, each
 * its own short transaction fenced by the run; the switch to the new generation is one short
 * transaction (the caller's, with the scan's completion); the replaced generation is deleted in
 * chunks afterwards, and whatever a dead run left behind by the recovery sweep. On the embedded
 * database (one connection) API requests get the connection between any two chunks.
 */

/** Rows per transaction while storing: on the embedded database about 30–60 ms each. */
export const STORE_CHUNK_ROWS = 250;
/** Rows per transaction while deleting a replaced or abandoned generation. */
export const DELETE_CHUNK_ROWS = 1000;

export interface GenerationTarget {
  tenantId: string;
  repositoryId: string;
  scanId: string;
}

/** Checked, with its lock held, in every chunk's transaction; false stops the store. */
export type StoreFence = (db: Kysely<DB>) => Promise<boolean>;

/** The files' dependencies in runs of `size`, file by file, without copying them all. */
export function* dependencyChunks(
  files: readonly ExtractedFile[],
  size: number,
): Generator<FileDependency[]> {
  let chunk: FileDependency[] = [];
  for (const file of files) {
    for (const dependency of file.dependencies) {
      chunk.push({ file, dependency });
      if (chunk.length >= size) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Deletes generation `scanId` in chunks; stops early (false) when `keep` says it is in use. */
async function deleteGeneration(
  database: Database,
  tenantId: string,
  scanId: string,
  keep: (db: Kysely<DB>) => Promise<boolean>,
  chunkRows = DELETE_CHUNK_ROWS,
): Promise<boolean> {
  for (;;) {
    const deleted = await withTenant(database, tenantId, async (db) =>
      (await keep(db)) ? null : deleteGenerationChunk(db, scanId, chunkRows),
    );
    if (deleted === null) return false;
    if (deleted === 0) return true;
    await yieldToEventLoop();
  }
}

/**
 * Writes `files` as generation `target.scanId`, chunk by chunk: first whatever an earlier run
 * of the same scan left, then the rows. Readers keep seeing the current generation throughout.
 * False when the fence failed (the run was cancelled or taken over): nothing is switched, and
 * the sweep removes what was written.
 */
export async function stageGeneration(
  database: Database,
  target: GenerationTarget,
  files: readonly ExtractedFile[],
  fence: StoreFence,
  chunkRows = STORE_CHUNK_ROWS,
): Promise<boolean> {
  const cleared = await deleteGeneration(
    database,
    target.tenantId,
    target.scanId,
    async (db) => !(await fence(db)),
  );
  if (!cleared) return false;
  const begun = await withTenant(database, target.tenantId, async (db) => {
    if (!(await fence(db))) return false;
    await beginGeneration(db, target);
    return true;
  });
  if (!begun) return false;
  for (const chunk of dependencyChunks(files, chunkRows)) {
    const stored = await withTenant(database, target.tenantId, async (db) => {
      if (!(await fence(db))) return false;
      await insertGenerationRows(db, target, chunk);
      return true;
    });
    if (!stored) return false;
    await yieldToEventLoop();
  }
  return true;
}

/** Deletes a replaced generation in chunks (after the switch). The sweep finishes if this dies. */
export async function dropReplacedGeneration(
  database: Database,
  tenantId: string,
  scanId: string,
): Promise<void> {
  await deleteGeneration(database, tenantId, scanId, async () => false);
}

/**
 * The recovery sweep's part for dependencies: deletes the rows of retired generations and of
 * generations whose scan stopped running before its switch (a run killed mid-store), chunk by
 * chunk; a generation whose scan runs again is left to that run. Returns generations removed.
 */
export async function sweepLeftoverGenerations(database: Database): Promise<number> {
  const leftovers = await findLeftoverGenerations(database.system);
  let removed = 0;
  for (const generation of leftovers) {
    const done = await deleteGeneration(database, generation.tenant_id, generation.scan_id, (db) =>
      isGenerationStoring(db, generation.scan_id),
    );
    if (done) removed++;
  }
  return removed;
}

/** Dependency and file counts of an extraction, per ecosystem (the scan's result, scope self not counted). */
export function countDependencies(files: readonly ExtractedFile[]): {
  dependencyCount: number;
  fileCount: number;
  countsByEcosystem: Record<string, number>;
} {
  const countsByEcosystem: Record<string, number> = {};
  let dependencyCount = 0;
  for (const file of files) {
    // The project's own package is stored (and matched) but is not one of its dependencies.
    let n = 0;
    for (const dependency of file.dependencies) if (isDependency(dependency)) n++;
    if (n > 0) countsByEcosystem[file.ecosystem] = (countsByEcosystem[file.ecosystem] ?? 0) + n;
    dependencyCount += n;
  }
  return { dependencyCount, fileCount: files.length, countsByEcosystem };
}

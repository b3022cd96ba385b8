import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import { compositeKey } from '../../core/composite-key';
import { conflict, notFound, ProblemError } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, type PayloadOf } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import type { JobEnvelope } from '../../jobs/queue';
import { writeCycloneDx16 } from '../../sbom/cyclonedx-write';
import type { ExportDependency, ExportSubject } from '../../sbom/export-model';
import { readSbom } from '../../sbom/read';
import { writeSpdx23 } from '../../sbom/spdx-write';
import { toDependencies } from '../../sbom/to-dependencies';
import { DEFAULT_SBOM_LIMITS, type SbomGraph } from '../../sbom/types';
import type { JobDeps } from '../job-deps';
import { reportScanEnd } from '../scans/lifecycle';
import { ScanLogBuffer } from '../scans/run/scan-log';
import { storeScanDependencies } from '../scans/service';
import {
  claimScan,
  completeScan,
  failScan,
  insertQueuedScan,
  type ScanRow,
  writeScanLogs,
} from '../scans/store';
import { readPackageJson } from '../system/build-info';
import {
  claimExport,
  findLicences,
  findRepository,
  findSbomExport,
  findSbomImport,
  insertSbomExport,
  insertSbomImport,
  listRepositoryDependencies,
} from './store';
import type { SbomExportFormat } from './tables';

// One transaction; an expired (crashed) run left the scan queued, and the retry claims it.
export const SBOM_IMPORT = defineJob({
  name: 'sbom.import',
  payload: Type.Object({ importId: Type.String(), scanId: Type.String() }),
  expireInSeconds: 900,
  retryLimit: 3,
});
export const SBOM_EXPORT = defineJob({
  name: 'sbom.export',
  payload: Type.Object({ exportId: Type.String() }),
  expireInSeconds: 900,
  retryLimit: 3,
});

export type SbomImportJob = PayloadOf<typeof SBOM_IMPORT>;
export type SbomExportJob = PayloadOf<typeof SBOM_EXPORT>;

export interface AcceptImportInput {
  tenantId: string;
  repositoryId: string;
  document: unknown;
  /** The request body as received: hashed and measured for the record. */
  rawBody: string;
  maxComponents: number;
  correlationId: string | null;
}

/**
 * Checks an SBOM import and queues it: 404 for an unknown repository, 400 for what is no
 * supported SBOM, 422 (errors by path) for a malformed one, 409 when the repository has a
 * queued or running scan. On success a queued scan (trigger `sbom`), the read graph and the job
 * are written in the request's transaction; nothing is written otherwise.
 */
export async function acceptSbomImport(db: Kysely<DB>, input: AcceptImportInput) {
  const repository = await findRepository(db, input.repositoryId);
  if (!repository) throw notFound('The repository');
  const read = readSbom(input.document, {
    ...DEFAULT_SBOM_LIMITS,
    maxComponents: input.maxComponents,
  });
  if (!read.ok) throw new ProblemError(read.status, read.detail, { errors: read.errors });

  const scan = await insertQueuedScan(db, {
    repositoryId: input.repositoryId,
    trigger: 'sbom',
    branch: null,
  });
  if (!scan) throw conflict('A scan of this repository is already queued or running.');
  const scanId = scan.id;
  const importId = newId();
  await insertSbomImport(db, {
    id: importId,
    repositoryId: input.repositoryId,
    scanId,
    graph: read.graph,
    warnings: read.warnings,
    documentSha256: createHash('sha256').update(input.rawBody).digest('hex'),
    documentBytes: Buffer.byteLength(input.rawBody),
  });
  await enqueue(db, SBOM_IMPORT, {
    tenantId: input.tenantId,
    data: { importId, scanId },
    correlationId: input.correlationId,
  });
  return { importId, scan, graph: read.graph };
}

function describe(graph: SbomGraph): string {
  const format = graph.format === 'cyclonedx' ? 'CycloneDX' : 'SPDX';
  return `${format} ${graph.specVersion}${graph.tool ? ` (${graph.tool})` : ''}`;
}

/**
 * The import job: in ONE tenant transaction it claims the queued scan, maps the graph to
 * dependencies, stores them (catalogue, replace, `dependencies.changed`), completes the scan and
 * drops the graph. A crash rolls everything back and leaves the scan queued for the job's retry;
 * a cancelled scan is skipped. A failure of the import itself fails the scan with the reason.
 * Scan state and log lines are written through the scan store (one statement for the lines).
 */
export async function runSbomImportJob(
  deps: JobDeps,
  envelope: JobEnvelope<SbomImportJob>,
): Promise<void> {
  const tenantId = envelope.tenantId;
  const { importId, scanId } = envelope.data;
  if (!tenantId || typeof importId !== 'string' || typeof scanId !== 'string') {
    deps.log('sbom import job without tenant or ids ignored', { data: envelope.data });
    return;
  }
  let ended: ScanRow | undefined;
  try {
    ended = await withTenant(deps.database, tenantId, async (db) => {
      const claimed = await claimScan(db, scanId);
      if (!claimed) {
        deps.log('sbom import skipped: scan is not queued', { tenantId, scanId });
        return undefined;
      }
      return importClaimed(db, {
        tenantId,
        scanId,
        importId,
        attempt: claimed.attempt,
        correlationId: envelope.correlationId,
      });
    });
  } catch (error) {
    const message = `sbom import failed: ${(error as Error).message ?? 'unknown error'}`;
    deps.log('sbom import failed', { tenantId, scanId, err: error });
    ended = await withTenant(deps.database, tenantId, async (db) => {
      // The claim rolled back with the failure: the scan is queued again, and fails from there.
      const failed = await failScan(db, scanId, message);
      if (failed) {
        await writeScanLogs(db, { scanId }, [
          { level: 'error', step: 'sbom', message, at: new Date() },
        ]);
      }
      return failed;
    });
  }
  // Once committed: the import's end, from the row its final move returned.
  reportScanEnd(deps.observe, ended);
}

/** The claimed import's work, in the job's transaction; returns the completed scan. */
async function importClaimed(
  db: Kysely<DB>,
  run: {
    tenantId: string;
    scanId: string;
    importId: string;
    attempt: number;
    correlationId: string | null;
  },
): Promise<ScanRow | undefined> {
  const lines = new ScanLogBuffer();
  const record = await findSbomImport(db, run.importId);
  if (!record?.graph) throw new Error('the import record has no document to process');
  const graph = record.graph;
  lines.add(
    'info',
    'sbom',
    `read ${describe(graph)}: ${graph.nodes.length} components, ${graph.edges.length} dependency edges`,
  );
  const mapped = toDependencies(graph);
  for (const warning of [...record.warnings, ...mapped.warnings]) {
    lines.add('warn', 'sbom', warning);
  }
  const stored = await storeScanDependencies(db, {
    tenantId: run.tenantId,
    repositoryId: record.repository_id,
    scanId: run.scanId,
    files: mapped.files,
    correlationId: run.correlationId,
  });
  const completed = await completeScan(db, run, { commitSha: null, ...stored, fileCount: 1 });
  await db
    .updateTable('sbom_imports')
    .set({ graph: null, processed_at: sql<Date>`clock_timestamp()` })
    .where('id', '=', run.importId)
    .execute();
  const counts = Object.entries(stored.countsByEcosystem)
    .map(([ecosystem, count]) => `${ecosystem} ${count}`)
    .join(', ');
  lines.add(
    'info',
    'sbom',
    `stored ${stored.dependencyCount} dependencies${counts ? ` (${counts})` : ''} from ${mapped.mappedCount} of ${mapped.componentCount} components; scan completed`,
  );
  await writeScanLogs(db, run, lines.take());
  return completed;
}

export async function requestSbomExport(
  db: Kysely<DB>,
  input: {
    tenantId: string;
    repositoryId: string;
    format: SbomExportFormat;
    correlationId: string | null;
  },
) {
  const repository = await findRepository(db, input.repositoryId);
  if (!repository) throw notFound('The repository');
  const row = await insertSbomExport(db, {
    id: newId(),
    repositoryId: input.repositoryId,
    format: input.format,
  });
  await enqueue(db, SBOM_EXPORT, {
    tenantId: input.tenantId,
    data: { exportId: row.id },
    correlationId: input.correlationId,
  });
  return row;
}

/** A stored licence fit for an SBOM licence expression (else the writers omit it). */
function spdxShaped(licence: string | undefined): string | null {
  if (!licence) return null;
  const text = licence.trim();
  if (text.length > 200) return null;
  return /^\(?[A-Za-z0-9.+-]+(?:\)?\s+(?:AND|OR|WITH)\s+\(?[A-Za-z0-9.+-]+\)?)*\)?$/.test(text)
    ? text
    : null;
}

/** An http(s) URL without user info (a clone URL may carry credentials); null otherwise. */
export function publicUrl(text: string | null): string | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return null;
  }
}

let toolVersion: string | null = null;
function driftwatchVersion(): string {
  toolVersion ??= readPackageJson().version;
  return toolVersion;
}

/** Builds the document of one export from stored state (no outside calls). */
export async function generateExportDocument(
  db: Kysely<DB>,
  exportRow: { id: string; repository_id: string; format: SbomExportFormat; created_at: Date },
) {
  const repository = await findRepository(db, exportRow.repository_id);
  if (!repository) throw new Error('the repository no longer exists');
  const rows = await listRepositoryDependencies(db, exportRow.repository_id);
  const licences = await findLicences(
    db,
    rows.map((row) => ({ packageId: row.package_id, version: row.version })),
  );
  const dependencies: ExportDependency[] = rows.map((row) => ({
    ecosystem: row.ecosystem,
    name: row.name,
    version: row.version,
    purl: row.purl,
    direct: row.direct,
    parents: row.parents,
    scope: row.scope,
    licence: spdxShaped(licences.get(compositeKey(row.package_id, row.version ?? ''))),
  }));
  const subject: ExportSubject = {
    exportId: exportRow.id,
    repositoryId: repository.id,
    repositoryName: repository.full_name,
    repositoryUrl: publicUrl(repository.web_url) ?? publicUrl(repository.clone_url),
    createdAt: exportRow.created_at,
    toolName: 'driftwatch',
    toolVersion: driftwatchVersion(),
  };
  const document =
    exportRow.format === 'cyclonedx-1.6'
      ? writeCycloneDx16(subject, dependencies)
      : writeSpdx23(subject, dependencies);
  return {
    text: JSON.stringify(document, null, 2),
    scanId: rows[0]?.scan_id ?? repository.last_scan_id ?? null,
    componentCount: new Set(dependencies.map((d) => `${d.ecosystem}/${d.name}@${d.version ?? ''}`))
      .size,
  };
}

/** The export job: generates the document and stores it; a failure is the export's `failed`. */
export async function runSbomExportJob(
  deps: JobDeps,
  envelope: JobEnvelope<SbomExportJob>,
): Promise<void> {
  const tenantId = envelope.tenantId;
  const { exportId } = envelope.data;
  if (!tenantId || typeof exportId !== 'string') {
    deps.log('sbom export job without tenant or id ignored', { data: envelope.data });
    return;
  }
  try {
    // Repeatable read: the dependencies and their licences are read from one snapshot.
    await withTenant(
      deps.database,
      tenantId,
      async (db) => {
        const claimed = await claimExport(db, exportId);
        if (!claimed) return;
        const generated = await generateExportDocument(db, claimed);
        await db
          .updateTable('sbom_exports')
          .set({
            state: 'completed',
            document: generated.text,
            document_bytes: Buffer.byteLength(generated.text),
            document_sha256: createHash('sha256').update(generated.text).digest('hex'),
            component_count: generated.componentCount,
            scan_id: generated.scanId,
            finished_at: sql<Date>`clock_timestamp()`,
          })
          .where('id', '=', exportId)
          .execute();
      },
      'repeatable read',
    );
  } catch (error) {
    deps.log('sbom export failed', { tenantId, exportId, err: error });
    const message = `export failed: ${(error as Error).message ?? 'unknown error'}`.slice(0, 2000);
    await withTenant(deps.database, tenantId, (db) =>
      db
        .updateTable('sbom_exports')
        .set({ state: 'failed', error: message, finished_at: sql<Date>`clock_timestamp()` })
        .where('id', '=', exportId)
        .where('state', 'in', ['queued', 'running'])
        .execute(),
    );
  }
}

export { findSbomExport };

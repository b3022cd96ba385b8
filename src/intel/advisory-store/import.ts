import { readFile } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import { compositeKey } from '../../core/composite-key';
import type { Database } from '../../db/connection';
import type { DB } from '../../db/schema';
import type { NotAnAdvisory, RejectedRecord } from '../osv/types';
import {
  advisoryFiles,
  emptyReadResult,
  isZip,
  type ReadResult,
  readRecordsFromBytes,
  zipRecordBatches,
} from './read';
import {
  type PackageKey,
  type PreparedBatch,
  prepareAdvisoryBatch,
  type SeverityRaise,
  storeAdvisoryBatch,
} from './store';

/**
 * Imports read records into the store in batches (one system transaction each) and then tells
 * `onChange` which packages the changed advisories name. What follows (re-matching every tenant
 * that uses them) belongs to the exposures domain, which the caller passes in: the shared
 * knowledge knows no tenant and no job (docs/architecture.md#layer-rules).
 */
export type AdvisoryChangeHandler = ((
  system: Kysely<DB>,
  packages: PackageKey[],
  options: { correlationId?: string | null },
) => Promise<number>) & {
  /**
   * Runs inside each batch's transaction with the vulnerabilities whose severity the batch
   * raised, so what follows (events to the tenants concerned) commits with the change.
   */
  severityRaised?: (trx: Kysely<DB>, raised: SeverityRaise[]) => Promise<void>;
};

export interface ImportSummary {
  read: number;
  added: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** The first rejected records (at most 50), with why. */
  rejections: RejectedRecord[];
  /** JSON documents that are no OSV record (a schema, a manifest), skipped; not in `read`. */
  notAdvisories: number;
  /** The first of them (at most 50), with why. */
  notAdvisoryDocuments: NotAnAdvisory[];
  changedPackages: number;
  changedVulnerabilities: number;
  /** Tenants asked to re-match their exposures. */
  tenantsNotified: number;
}

const BATCH = 500;
const MAX_REJECTIONS_KEPT = 50;
/** Records written by one import before its first ANALYZE; each next one after 4 times more. */
const FIRST_ANALYZE_AT = 5_000;

/**
 * Refreshes the planner's statistics of the store's tables. Without them the lookups by alias
 * and by advisory id turn into sequential scans as the tables grow (an `IN` list of a thousand
 * keys is estimated at the default selectivity): the 500,000-record import slowed from 1,600 to
 * under 600 records/s. Autovacuum would do it eventually on a server that runs it; the embedded
 * database (PGlite, single-user) never does.
 */
async function analyzeStore(database: Database): Promise<void> {
  await sql`ANALYZE osv_advisories, osv_advisory_aliases, osv_affected, vulnerabilities`.execute(
    database.system,
  );
}

/**
 * An import batch's commit does not wait for the server's WAL flush (PostgreSQL): a crash can
 * lose the last batches committed, never half of one, and the import is idempotent (the next
 * import or sync stores them again: docs/vulnerabilities.md). PGlite runs without fsync anyway.
 */
async function relaxCommit(database: Database, trx: Kysely<DB>): Promise<void> {
  if (database.engine === 'postgres') await sql`SET LOCAL synchronous_commit = off`.execute(trx);
}

/**
 * Imports records as they are read (batch by batch), then asks for the re-matching once at the
 * end. Large exports stream through it without being held in memory whole.
 */
export class AdvisoryImporter {
  readonly summary: ImportSummary = {
    read: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    rejections: [],
    notAdvisories: 0,
    notAdvisoryDocuments: [],
    changedPackages: 0,
    changedVulnerabilities: 0,
    tenantsNotified: 0,
  };
  private readonly packages = new Map<string, PackageKey>();
  private readonly vulnerabilities = new Set<string>();
  private nextAnalyzeAt = FIRST_ANALYZE_AT;
  /** The batch being written, at most one (see `add`). */
  private writing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  private lastBatchChanged = true;

  constructor(
    private readonly database: Database,
    private readonly onChange: AdvisoryChangeHandler,
    private readonly options: { correlationId?: string | null } = {},
  ) {}

  async add(read: ReadResult): Promise<void> {
    this.summary.read += read.records.length + read.rejected.length;
    this.summary.rejected += read.rejected.length;
    const room = MAX_REJECTIONS_KEPT - this.summary.rejections.length;
    if (room > 0) this.summary.rejections.push(...read.rejected.slice(0, room));
    this.summary.notAdvisories += read.notAdvisories.length;
    const skippedRoom = MAX_REJECTIONS_KEPT - this.summary.notAdvisoryDocuments.length;
    if (skippedRoom > 0) {
      this.summary.notAdvisoryDocuments.push(...read.notAdvisories.slice(0, skippedRoom));
    }
    for (let i = 0; i < read.records.length; i += BATCH) {
      // The batch's rows are built while the server still writes the previous batch, unless
      // that one changed nothing (an unchanged feed: its rows would be built for nothing).
      const batch = prepareAdvisoryBatch(read.records.slice(i, i + BATCH), {
        rows: this.lastBatchChanged,
      });
      await this.drain();
      let writing = () => {};
      const sent = new Promise<void>((resolve) => {
        // After a turn of the event loop: the first bulk write is on the wire by then.
        writing = () => setImmediate(resolve);
      });
      this.writing = this.write(batch, writing).catch((error: unknown) => {
        this.failure ??= { error };
      });
      // The caller reads and parses the next records while the server does this batch's bulk
      // writes: returning only after the lookups (they need Node between their round trips)
      // lets the two overlap. Returning at once, the caller's parsing would run while the
      // server waits for the next lookup, and the two processes would take turns.
      await Promise.race([sent, this.writing]);
    }
  }

  /**
   * Waits for the batch being written; throws if a write failed (and then for every later call:
   * nothing is written after a failed batch).
   */
  async drain(): Promise<void> {
    await this.writing;
    if (this.failure) throw this.failure.error;
  }

  /** One batch in one transaction; the next batch starts after it commits (its groups see it). */
  private async write(batch: PreparedBatch, writing: () => void): Promise<void> {
    const result = await this.database.system.transaction().execute(async (trx) => {
      await relaxCommit(this.database, trx);
      const stored = await storeAdvisoryBatch(trx, batch, { writing });
      if (stored.severityRaised.length > 0) {
        await this.onChange.severityRaised?.(trx, stored.severityRaised);
      }
      return stored;
    });
    this.lastBatchChanged = result.added + result.updated > 0;
    this.summary.added += result.added;
    this.summary.updated += result.updated;
    this.summary.unchanged += result.unchanged;
    for (const p of result.changedPackages) this.packages.set(compositeKey(p.ecosystem, p.name), p);
    for (const id of result.changedVulnerabilities) this.vulnerabilities.add(id);
    if (this.summary.added + this.summary.updated >= this.nextAnalyzeAt) {
      await analyzeStore(this.database);
      this.nextAnalyzeAt *= 4;
    }
  }

  async finish(): Promise<ImportSummary> {
    await this.drain();
    // The statistics describe the store as this import left it (a large import's last quarter).
    if (this.summary.added + this.summary.updated >= FIRST_ANALYZE_AT)
      await analyzeStore(this.database);
    this.summary.changedPackages = this.packages.size;
    this.summary.changedVulnerabilities = this.vulnerabilities.size;
    if (this.packages.size > 0) {
      this.summary.tenantsNotified = await this.onChange(
        this.database.system,
        [...this.packages.values()],
        this.options,
      );
    }
    return this.summary;
  }
}

export async function importRecords(
  database: Database,
  read: ReadResult,
  onChange: AdvisoryChangeHandler,
  options: { correlationId?: string | null } = {},
): Promise<ImportSummary> {
  const importer = new AdvisoryImporter(database, onChange, options);
  await importer.add(read);
  return importer.finish();
}

/** Bytes of a feed or a file: zip archives stream entry by entry, anything else is text. */
export async function importBytes(
  importer: AdvisoryImporter,
  bytes: Uint8Array,
  source: string,
): Promise<void> {
  if (isZip(bytes)) {
    try {
      for (const batch of zipRecordBatches(bytes, source, BATCH)) await importer.add(batch);
    } catch (error) {
      // A broken archive: what was read before it is stored before the error goes on.
      await importer.drain().catch(() => undefined);
      throw error;
    }
    return;
  }
  const read = emptyReadResult();
  readRecordsFromBytes(bytes, source, read);
  await importer.add(read);
}

/** A file or a directory tree (symbolic links not followed), file by file. */
export async function importPath(
  database: Database,
  path: string,
  onChange: AdvisoryChangeHandler,
): Promise<ImportSummary> {
  const importer = new AdvisoryImporter(database, onChange);
  for (const file of await advisoryFiles(path)) {
    await importBytes(importer, await readFile(file.full), file.label);
  }
  return importer.finish();
}

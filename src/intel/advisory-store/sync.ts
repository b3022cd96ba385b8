import { sql } from 'kysely';
import { BodyTooLargeError, readCappedBody } from '../../core/http-client';
import type { Database } from '../../db/connection';
import {
  type AdvisoryChangeHandler,
  AdvisoryImporter,
  type ImportSummary,
  importBytes,
} from './import';
import {
  importStaleRecords,
  modifiedIndexUrl,
  parseModifiedIndex,
  type RecordFetcher,
  staleEntries,
} from './incremental';

/**
 * The scheduled OSV sync: for each configured ecosystem, a first full import of its zip export;
 * after that, only the records the export's `modified_id.csv` lists as new or modified since what
 * the store holds (./incremental.ts), or, for an export without that index, a conditional GET of
 * the zip (If-None-Match / If-Modified-Since from the last answer) and an import when it changed.
 * The feed base comes from configuration (OSV_FEED_URL); unset disables the sync. The job that
 * runs it (`osv.sync`) is declared by the exposures domain, which handles it.
 */

/** Largest export accepted (osv.dev's largest per-ecosystem zip is a few hundred MiB). */
export const MAX_FEED_BYTES = 2 * 1024 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15 * 60 * 1000;

export function feedUrlFor(base: string, ecosystem: string): string {
  const encoded = encodeURIComponent(ecosystem);
  if (base.includes('{ecosystem}')) return base.replaceAll('{ecosystem}', encoded);
  return `${base.replace(/\/+$/, '')}/${encoded}/all.zip`;
}

export type FetchOutcome =
  | { kind: 'not_modified' }
  | { kind: 'body'; bytes: Uint8Array; etag: string | null; lastModified: string | null };

export class FeedError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}

async function readBody(response: Response, limit: number): Promise<Uint8Array> {
  try {
    return await readCappedBody(response, limit);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const size = error.declared === null ? '' : ` ${error.declared} bytes,`;
    throw new FeedError(`the export is${size} over the ${limit}-byte limit`, null);
  }
}

/** GET with optional validators; 304 → not_modified; other non-2xx → FeedError. */
export async function fetchFeed(
  url: string,
  validators: { etag?: string | null; lastModified?: string | null } = {},
  limit = MAX_FEED_BYTES,
): Promise<FetchOutcome> {
  const headers: Record<string, string> = { accept: 'application/zip, application/json, */*' };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  let response: Response;
  try {
    response = await fetch(url, {
      headers,
      redirect: 'follow',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    throw new FeedError(`could not reach ${url}: ${(error as Error).message}`, null);
  }
  if (response.status === 304) {
    await response.body?.cancel();
    return { kind: 'not_modified' };
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new FeedError(`${url} answered ${response.status}`, response.status);
  }
  return {
    kind: 'body',
    bytes: await readBody(response, limit),
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
  };
}

/** `driftwatch admin import-osv <url>`: an unconditional download and import. */
export async function importFromUrl(
  database: Database,
  url: string,
  onChange: AdvisoryChangeHandler,
): Promise<ImportSummary> {
  const outcome = await fetchFeed(url);
  if (outcome.kind !== 'body')
    throw new FeedError(`${url} answered 304 to an unconditional GET`, 304);
  const importer = new AdvisoryImporter(database, onChange);
  await importBytes(importer, outcome.bytes, url);
  return importer.finish();
}

/** More changed records than this in the index: one zip download beats that many requests. */
export const MAX_INCREMENTAL_RECORDS = 10_000;

export interface FeedSyncReport {
  ecosystem: string;
  /** The zip export, or the index for an incremental run. */
  url: string;
  status: 'imported' | 'not_modified' | 'failed';
  /** `full`: the zip export; `incremental`: the index and the records it lists as changed. */
  mode: 'full' | 'incremental';
  summary?: ImportSummary;
  /** Incremental runs: index lines, and records downloaded or gone from the export (404). */
  listed?: number;
  fetched?: number;
  missing?: number;
  error?: string;
}

async function recordState(
  database: Database,
  url: string,
  state: {
    etag?: string | null;
    lastModified?: string | null;
    status: string;
    error?: string | null;
    records?: number;
    changed?: boolean;
  },
): Promise<void> {
  const changed = state.changed ? sql<Date>`now()` : null;
  await database.system
    .insertInto('osv_feed_state')
    .values({
      url,
      etag: state.etag ?? null,
      last_modified: state.lastModified ?? null,
      last_checked_at: sql<Date>`now()`,
      last_changed_at: changed,
      last_status: state.status,
      last_error: state.error ?? null,
      records: state.records ?? 0,
    })
    .onConflict((oc) =>
      oc.column('url').doUpdateSet({
        last_checked_at: sql<Date>`now()`,
        last_status: state.status,
        last_error: state.error ?? null,
        ...(state.status === 'imported'
          ? {
              etag: state.etag ?? null,
              last_modified: state.lastModified ?? null,
              last_changed_at: sql<Date>`now()`,
              records: state.records ?? 0,
            }
          : {}),
      }),
    )
    .execute();
}

/** What the sync needs from the OSV settings (config.osv), passed in by the job. */
export interface OsvFeedSettings {
  /** Base URL of the exports; null disables the sync. */
  feedUrl: string | null;
  /** OSV ecosystem names to sync. */
  syncEcosystems: readonly string[];
}

/** A record of the export; null when the export no longer has it (404). */
const fetchRecord: RecordFetcher = async (url, limit) => {
  try {
    const outcome = await fetchFeed(url, {}, limit);
    return outcome.kind === 'body' ? outcome.bytes : null;
  } catch (error) {
    if (error instanceof FeedError && error.status === 404) return null;
    throw error;
  }
};

function feedState(database: Database, url: string) {
  return database.system
    .selectFrom('osv_feed_state')
    .select(['etag', 'last_modified', 'last_changed_at'])
    .where('url', '=', url)
    .executeTakeFirst();
}

/** A GET with the validators of the last answer (none when `unconditional`); a 304 is recorded. */
async function conditionalGet(
  database: Database,
  url: string,
  unconditional = false,
): Promise<FetchOutcome> {
  const previous = unconditional ? undefined : await feedState(database, url);
  const outcome = await fetchFeed(url, {
    etag: previous?.etag,
    lastModified: previous?.last_modified,
  });
  if (outcome.kind === 'not_modified') await recordState(database, url, { status: 'not_modified' });
  return outcome;
}

/** A completed import: the answer's validators are kept for the next conditional GET. */
function recordImported(
  database: Database,
  url: string,
  outcome: Extract<FetchOutcome, { kind: 'body' }>,
  summary: ImportSummary,
): Promise<void> {
  return recordState(database, url, {
    status: 'imported',
    etag: outcome.etag,
    lastModified: outcome.lastModified,
    records: summary.read - summary.rejected,
    changed: true,
  });
}

/**
 * An incremental run from the export's index, or why the zip is needed instead: the export has
 * no index (404), or it lists more changes than `MAX_INCREMENTAL_RECORDS`.
 */
async function syncFromIndex(
  database: Database,
  ecosystem: string,
  indexUrl: string,
  onChange: AdvisoryChangeHandler,
): Promise<FeedSyncReport | 'no_index' | 'too_many'> {
  const report = { ecosystem, url: indexUrl, mode: 'incremental' as const };
  try {
    const outcome = await conditionalGet(database, indexUrl);
    if (outcome.kind === 'not_modified') return { ...report, status: 'not_modified' };
    const { entries } = parseModifiedIndex(new TextDecoder().decode(outcome.bytes));
    const stale = await staleEntries(database.system, entries);
    if (stale.length > MAX_INCREMENTAL_RECORDS) return 'too_many';
    const importer = new AdvisoryImporter(database, onChange);
    const { fetched, missing } = await importStaleRecords(importer, indexUrl, stale, fetchRecord);
    const summary = await importer.finish();
    await recordImported(database, indexUrl, outcome, summary);
    return { ...report, status: 'imported', summary, listed: entries.length, fetched, missing };
  } catch (error) {
    if (error instanceof FeedError && error.status === 404) return 'no_index';
    const message = (error as Error).message.slice(0, 1000);
    await recordState(database, indexUrl, { status: 'failed', error: message });
    return { ...report, status: 'failed', error: message };
  }
}

/** The zip export: conditional GET (unless `unconditional`), then the import of all of it. */
async function syncFullExport(
  database: Database,
  ecosystem: string,
  url: string,
  onChange: AdvisoryChangeHandler,
  unconditional: boolean,
): Promise<FeedSyncReport> {
  try {
    const outcome = await conditionalGet(database, url, unconditional);
    if (outcome.kind === 'not_modified')
      return { ecosystem, url, mode: 'full', status: 'not_modified' };
    const importer = new AdvisoryImporter(database, onChange);
    await importBytes(importer, outcome.bytes, url);
    const summary = await importer.finish();
    await recordImported(database, url, outcome, summary);
    return { ecosystem, url, mode: 'full', status: 'imported', summary };
  } catch (error) {
    const message = (error as Error).message.slice(0, 1000);
    await recordState(database, url, { status: 'failed', error: message });
    return { ecosystem, url, mode: 'full', status: 'failed', error: message };
  }
}

/**
 * Syncs every configured ecosystem; one failing feed does not stop the others. Returns a report
 * per ecosystem (an empty list when the feed is not configured). The index is used once the zip
 * export was imported in full at least once (a first run has nothing to compare with).
 */
export async function syncOsvFeeds(
  database: Database,
  settings: OsvFeedSettings,
  onChange: AdvisoryChangeHandler,
): Promise<FeedSyncReport[]> {
  if (!settings.feedUrl) return [];
  const reports: FeedSyncReport[] = [];
  for (const ecosystem of settings.syncEcosystems) {
    const url = feedUrlFor(settings.feedUrl, ecosystem);
    const indexUrl = modifiedIndexUrl(url);
    const imported = (await feedState(database, url))?.last_changed_at;
    const incremental =
      indexUrl && imported ? await syncFromIndex(database, ecosystem, indexUrl, onChange) : null;
    if (typeof incremental === 'object' && incremental !== null) {
      reports.push(incremental);
      continue;
    }
    // First run, no index, or more changes than worth fetching one by one: the zip, in full
    // (unconditionally in the last case: the index says it changed whatever its validators say).
    reports.push(
      await syncFullExport(database, ecosystem, url, onChange, incremental === 'too_many'),
    );
  }
  return reports;
}

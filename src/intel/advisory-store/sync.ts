import { sql } from 'kysely';
import type { Database } from '../../db/connection';
import {
  type AdvisoryChangeHandler,
  AdvisoryImporter,
  type ImportSummary,
  importBytes,
} from './import';

/**
 * The scheduled OSV sync: for each configured ecosystem, a conditional GET of its zip export
 * (If-None-Match / If-Modified-Since from the last answer), and an import when it changed. The
 * feed base comes from configuration (OSV_FEED_URL); unset disables the sync with a clear status.
 */
export const OSV_SYNC_JOB = 'osv.sync';

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
  const declared = Number(response.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) {
    throw new FeedError(`the export is ${declared} bytes, over the ${limit}-byte limit`, null);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limit) throw new FeedError(`the export is over the ${limit}-byte limit`, null);
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
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

export interface FeedSyncReport {
  ecosystem: string;
  url: string;
  status: 'imported' | 'not_modified' | 'failed';
  summary?: ImportSummary;
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

/**
 * Syncs every configured ecosystem; one failing feed does not stop the others. Returns a report
 * per ecosystem (an empty list when the feed is not configured).
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
    const previous = await database.system
      .selectFrom('osv_feed_state')
      .select(['etag', 'last_modified'])
      .where('url', '=', url)
      .executeTakeFirst();
    try {
      const outcome = await fetchFeed(url, {
        etag: previous?.etag,
        lastModified: previous?.last_modified,
      });
      if (outcome.kind === 'not_modified') {
        await recordState(database, url, { status: 'not_modified' });
        reports.push({ ecosystem, url, status: 'not_modified' });
        continue;
      }
      const importer = new AdvisoryImporter(database, onChange);
      await importBytes(importer, outcome.bytes, url);
      const summary = await importer.finish();
      await recordState(database, url, {
        status: 'imported',
        etag: outcome.etag,
        lastModified: outcome.lastModified,
        records: summary.read - summary.rejected,
        changed: true,
      });
      reports.push({ ecosystem, url, status: 'imported', summary });
    } catch (error) {
      const message = (error as Error).message.slice(0, 1000);
      await recordState(database, url, { status: 'failed', error: message });
      reports.push({ ecosystem, url, status: 'failed', error: message });
    }
  }
  return reports;
}

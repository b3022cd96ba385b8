import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { LIMITS } from '../osv/parse';
import type { AdvisoryImporter } from './import';
import { emptyReadResult, readRecordsFromBytes } from './read';

/**
 * Incremental OSV sync (docs/vulnerabilities.md, "Scheduled sync"). Next to each `all.zip`, an
 * OSV export publishes `modified_id.csv` (one `<modified>,<id>` line per record, newest first)
 * and every record as `<id>.json`. After a first full import, a run reads the index, compares
 * each line with what the store holds (set-based, by primary key), and downloads and stores only
 * the records that are new or modified since: the store itself is the cursor, so a run that
 * failed halfway is completed by the next one without any bookkeeping.
 */

export interface IndexEntry {
  id: string;
  modified: number;
}

/** Lines compared with the store per statement. */
const COMPARE_CHUNK = 5_000;
/** Records downloaded at the same time. */
const FETCH_CONCURRENCY = 8;
/** Records handed to the importer at once (its own batches are this size). */
const IMPORT_BATCH = 500;

/** `<dir>/modified_id.csv` for an export URL `<dir>/all.zip`; null for any other URL shape. */
export function modifiedIndexUrl(exportUrl: string): string | null {
  return exportUrl.endsWith('/all.zip')
    ? `${exportUrl.slice(0, -'all.zip'.length)}modified_id.csv`
    : null;
}

/** `<dir>/<id>.json` beside the index. */
export function recordUrl(indexUrl: string, id: string): string {
  return `${indexUrl.slice(0, -'modified_id.csv'.length)}${encodeURIComponent(id)}.json`;
}

/**
 * The index's lines: `<RFC 3339 modified>,<id>`. A line that is not that shape (a header, a
 * blank line, an id with a path) is counted in `skipped` and left out; for the top-level index
 * (`<ecosystem>/<id>`) the part after the last slash is the id.
 */
export function parseModifiedIndex(text: string): { entries: IndexEntry[]; skipped: number } {
  const entries: IndexEntry[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const comma = trimmed.indexOf(',');
    const modified = comma > 0 ? Date.parse(trimmed.slice(0, comma)) : Number.NaN;
    const id = trimmed.slice(comma + 1).trim();
    const bare = id.slice(id.lastIndexOf('/') + 1);
    if (Number.isNaN(modified) || !/^[A-Za-z0-9][\w.:-]*$/.test(bare)) {
      skipped++;
      continue;
    }
    entries.push({ id: bare, modified });
  }
  return { entries, skipped };
}

/** The entries whose record the store lacks or holds with an older `modified`. */
export async function staleEntries(
  db: Kysely<DB>,
  entries: readonly IndexEntry[],
): Promise<IndexEntry[]> {
  const stale: IndexEntry[] = [];
  for (let i = 0; i < entries.length; i += COMPARE_CHUNK) {
    const part = entries.slice(i, i + COMPARE_CHUNK);
    const { rows } = await sql<{ id: string; modified_at: Date }>`
      SELECT a.id, a.modified_at
      FROM unnest(${part.map((e) => e.id)}::text[]) AS wanted(id)
      JOIN osv_advisories a ON a.id = wanted.id`.execute(db);
    const stored = new Map(rows.map((row) => [row.id, row.modified_at.getTime()]));
    for (const entry of part) {
      const modified = stored.get(entry.id);
      if (modified === undefined || modified < entry.modified) stale.push(entry);
    }
  }
  return stale;
}

export type RecordFetcher = (url: string, limit: number) => Promise<Uint8Array | null>;

/**
 * Downloads the stale records (a few at a time) and imports them in batches. A record the
 * export no longer has (404) is counted in `missing`; any other failure stops the run with the
 * error after what was fetched is stored (the next run fetches the rest).
 */
export async function importStaleRecords(
  importer: AdvisoryImporter,
  indexUrl: string,
  stale: readonly IndexEntry[],
  fetchRecord: RecordFetcher,
): Promise<{ fetched: number; missing: number }> {
  let fetched = 0;
  let missing = 0;
  for (let i = 0; i < stale.length; i += IMPORT_BATCH) {
    const part = stale.slice(i, i + IMPORT_BATCH);
    const read = emptyReadResult();
    let failure: unknown = null;
    let next = 0;
    const worker = async () => {
      while (next < part.length && failure === null) {
        const entry = part[next++] as IndexEntry;
        const url = recordUrl(indexUrl, entry.id);
        try {
          const bytes = await fetchRecord(url, LIMITS.recordBytes);
          if (bytes === null) missing++;
          else {
            fetched++;
            readRecordsFromBytes(bytes, url, read);
          }
        } catch (error) {
          failure = error;
        }
      }
    };
    await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, worker));
    await importer.add(read);
    if (failure !== null) {
      await importer.drain();
      throw failure;
    }
  }
  return { fetched, missing };
}

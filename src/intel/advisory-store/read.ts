import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Unzip, type UnzipFile, UnzipInflate } from 'fflate';
import { LIMITS, parseOsvRecord, splitOsvText } from '../osv/parse';
import type { NotAnAdvisory, RejectedRecord } from '../osv/types';
import type { IncomingAdvisory } from './store';

/**
 * Reads OSV records from what a user or a feed hands over: one JSON record, a JSON array, an
 * osv.dev answer (`{"vulns": [...]}`), JSON Lines, a zip export (one record per entry, as
 * osv.dev's per-ecosystem `all.zip`), or a directory of those. Every byte is hostile: a bad
 * record is rejected with its reasons and the rest goes on; zip entries are size-checked before
 * they are inflated.
 */
export interface ReadResult {
  records: IncomingAdvisory[];
  rejected: RejectedRecord[];
  /** JSON documents that are no OSV record (a schema, a manifest): skipped, not rejected. */
  notAdvisories: NotAnAdvisory[];
}

export const emptyReadResult = (): ReadResult => ({ records: [], rejected: [], notAdvisories: [] });

/** Zip limits: far above osv.dev's exports, far below what would exhaust memory. */
export const ZIP_LIMITS = {
  entries: 500_000,
  entryBytes: LIMITS.recordBytes,
  totalBytes: 4 * 1024 * 1024 * 1024,
};

function collect(value: unknown, source: string, out: ReadResult): void {
  const parsed = parseOsvRecord(value);
  if (parsed.ok) out.records.push({ advisory: parsed.advisory, source });
  else out.rejected.push({ source, id: parsed.id, reasons: parsed.reasons });
}

/**
 * Records of one text: a JSON document (record, array, `{vulns}`) or JSON Lines, split by the
 * OSV parser's own reader (src/intel/osv/parse.ts) so both read files the same way.
 */
export function readRecordsFromText(text: string, source: string, out: ReadResult): void {
  const { records, rejected, notAdvisories } = splitOsvText(text, source);
  out.rejected.push(...rejected);
  out.notAdvisories.push(...notAdvisories);
  for (const record of records) collect(record.value, record.source, out);
}

export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    bytes[2] === 0x03 &&
    bytes[3] === 0x04
  );
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Records of a zip archive: every `.json`/`.jsonl` entry, size-checked before inflating. */
export function readRecordsFromZip(bytes: Uint8Array, source: string, out: ReadResult): void {
  for (const batch of zipRecordBatches(bytes, source, Number.POSITIVE_INFINITY)) {
    out.records.push(...batch.records);
    out.rejected.push(...batch.rejected);
    out.notAdvisories.push(...batch.notAdvisories);
  }
}

const ZIP_CHUNK = 64 * 1024;

/** An archive ends with an end-of-central-directory record (signature PK\\x05\\x06). */
function hasEndOfCentralDirectory(bytes: Uint8Array): boolean {
  const stop = Math.max(0, bytes.length - 22 - 65_535);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (
      bytes[i] === 0x50 &&
      bytes[i + 1] === 0x4b &&
      bytes[i + 2] === 0x05 &&
      bytes[i + 3] === 0x06
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Inflates one entry into the current batch (`batch()`, read when data arrives: the batch is
 * replaced after each yield), refusing it past the size limit whatever its header declared.
 */
function readEntry(
  file: UnzipFile,
  where: string,
  batch: () => ReadResult,
  unfinished: Set<string>,
): void {
  const parts: Uint8Array[] = [];
  let size = 0;
  let refused = false;
  unfinished.add(where);
  file.ondata = (error, data, final) => {
    if (final) unfinished.delete(where);
    if (refused) return;
    if (error) {
      refused = true;
      batch().rejected.push({
        source: where,
        id: null,
        reasons: [`unreadable entry: ${error.message}`],
      });
      return;
    }
    size += data.byteLength;
    // The declared size can lie: stop at the limit whatever the header said.
    if (size > ZIP_LIMITS.entryBytes) {
      refused = true;
      parts.length = 0;
      batch().rejected.push({
        source: where,
        id: null,
        reasons: ['zip entry over the size limit'],
      });
      return;
    }
    parts.push(data);
    if (!final) return;
    const whole = parts.length === 1 ? (parts[0] as Uint8Array) : concat(parts, size);
    readRecordsFromText(decoder.decode(whole), where, batch());
  };
  try {
    file.start();
  } catch (error) {
    batch().rejected.push({ source: where, id: null, reasons: [(error as Error).message] });
  }
}

/**
 * Streams the records of a zip archive in batches of about `batchSize`, inflating entry by entry
 * as the archive is walked, so an export of hundreds of thousands of records never sits in memory
 * decompressed all at once. The caller imports each batch before asking for the next.
 */
export function* zipRecordBatches(
  bytes: Uint8Array,
  source: string,
  batchSize = 500,
): Generator<ReadResult> {
  let pending = emptyReadResult();
  let entries = 0;
  let total = 0;
  let broken: string | null = hasEndOfCentralDirectory(bytes)
    ? null
    : 'no end-of-central-directory record (truncated or not a zip)';
  const unfinished = new Set<string>();
  const unzipper = new Unzip();
  unzipper.register(UnzipInflate);
  unzipper.onfile = (file) => {
    if (!/\.jsonl?$/i.test(file.name)) return;
    const where = `${source}!${file.name}`;
    entries++;
    const declared = file.originalSize ?? 0;
    total += declared;
    if (
      entries > ZIP_LIMITS.entries ||
      declared > ZIP_LIMITS.entryBytes ||
      total > ZIP_LIMITS.totalBytes
    ) {
      pending.rejected.push({
        source: where,
        id: null,
        reasons: ['zip entry over the size or count limit'],
      });
      return;
    }
    readEntry(file, where, () => pending, unfinished);
  };
  for (let offset = 0; offset < bytes.length && !broken; offset += ZIP_CHUNK) {
    try {
      unzipper.push(bytes.subarray(offset, offset + ZIP_CHUNK), offset + ZIP_CHUNK >= bytes.length);
    } catch (error) {
      broken = (error as Error).message;
    }
    if (pending.records.length >= batchSize) {
      yield pending;
      pending = emptyReadResult();
    }
  }
  for (const where of unfinished) {
    pending.rejected.push({ source: where, id: null, reasons: ['truncated zip entry'] });
  }
  if (broken) {
    pending.rejected.push({
      source,
      id: null,
      reasons: [`not a readable zip archive: ${broken.slice(0, 200)}`],
    });
  }
  const anything = pending.records.length + pending.rejected.length + pending.notAdvisories.length;
  if (anything > 0) yield pending;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Records of bytes whose kind is told by their content (zip magic) or else read as text. */
export function readRecordsFromBytes(bytes: Uint8Array, source: string, out: ReadResult): void {
  if (isZip(bytes)) readRecordsFromZip(bytes, source, out);
  else readRecordsFromText(decoder.decode(bytes), source, out);
}

const ADVISORY_FILE = /\.(json|jsonl|zip)$/i;

/** The advisory files of a file or a directory tree (symbolic links are not followed). */
export async function advisoryFiles(path: string): Promise<{ full: string; label: string }[]> {
  const info = await lstat(path);
  if (info.isFile()) return [{ full: path, label: path }];
  if (!info.isDirectory()) throw new Error(`${path} is neither a file nor a directory`);
  const files: { full: string; label: string }[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && ADVISORY_FILE.test(entry.name)) {
        files.push({ full, label: relative(path, full) || entry.name });
      }
    }
  };
  await walk(path);
  return files;
}

/** Records of a file or a directory tree, all in memory (tests and small inputs). */
export async function readRecordsFromPath(path: string): Promise<ReadResult> {
  const out = emptyReadResult();
  for (const file of await advisoryFiles(path)) {
    readRecordsFromBytes(await readFile(file.full), file.label, out);
  }
  return out;
}

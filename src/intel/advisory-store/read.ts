import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';
import { LIMITS, parseOsvRecord } from '../osv/parse';
import type { RejectedRecord } from '../osv/types';
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
}

/** Zip limits: far above osv.dev's exports, far below what would exhaust memory. */
export const ZIP_LIMITS = {
  entries: 500_000,
  entryBytes: LIMITS.recordBytes,
  totalBytes: 4 * 1024 * 1024 * 1024,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function collect(value: unknown, source: string, out: ReadResult): void {
  const parsed = parseOsvRecord(value);
  if (parsed.ok) out.records.push({ advisory: parsed.advisory, raw: value, source });
  else out.rejected.push({ source, id: parsed.id, reasons: parsed.reasons });
}

/** Records of one text: a JSON document (record, array, `{vulns}`) or JSON Lines. */
export function readRecordsFromText(text: string, source: string, out: ReadResult): void {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trimStart();
  if (trimmed.length === 0) return;
  if ((trimmed[0] === '[' || trimmed[0] === '{') && body.length <= LIMITS.recordBytes * 8) {
    let whole: unknown;
    let parsed = false;
    try {
      whole = JSON.parse(body);
      parsed = true;
    } catch {
      // Not one document: JSON Lines below.
    }
    if (parsed) {
      if (Array.isArray(whole)) {
        whole.forEach((value, i) => {
          collect(value, `${source}[${i}]`, out);
        });
      } else if (isObject(whole) && Array.isArray(whole.vulns) && !Object.hasOwn(whole, 'id')) {
        whole.vulns.forEach((value, i) => {
          collect(value, `${source}[${i}]`, out);
        });
      } else {
        collect(whole, source, out);
      }
      return;
    }
  }
  let start = 0;
  let line = 0;
  while (start < body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    line++;
    const raw = body.slice(start, end);
    start = end + 1;
    if (raw.trim().length === 0) continue;
    const where = `${source}#${line}`;
    if (raw.length > LIMITS.recordBytes) {
      out.rejected.push({ source: where, id: null, reasons: ['record larger than 16 MiB'] });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      out.rejected.push({
        source: where,
        id: null,
        reasons: [`not valid JSON: ${(error as Error).message.slice(0, 200)}`],
      });
      continue;
    }
    collect(value, where, out);
  }
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
  let entries = 0;
  let total = 0;
  const skipped: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (!/\.jsonl?$/i.test(file.name)) return false;
        entries++;
        total += file.originalSize;
        if (
          entries > ZIP_LIMITS.entries ||
          file.originalSize > ZIP_LIMITS.entryBytes ||
          total > ZIP_LIMITS.totalBytes
        ) {
          skipped.push(file.name);
          return false;
        }
        return true;
      },
    });
  } catch (error) {
    out.rejected.push({
      source,
      id: null,
      reasons: [`not a readable zip archive: ${(error as Error).message.slice(0, 200)}`],
    });
    return;
  }
  for (const name of skipped.slice(0, 100)) {
    out.rejected.push({
      source: `${source}!${name}`,
      id: null,
      reasons: ['zip entry over the size or count limit'],
    });
  }
  for (const name of Object.keys(files).sort()) {
    readRecordsFromText(decoder.decode(files[name]), `${source}!${name}`, out);
  }
}

/** Records of bytes whose kind is told by their content (zip magic) or else read as text. */
export function readRecordsFromBytes(bytes: Uint8Array, source: string, out: ReadResult): void {
  if (isZip(bytes)) readRecordsFromZip(bytes, source, out);
  else readRecordsFromText(decoder.decode(bytes), source, out);
}

const ADVISORY_FILE = /\.(json|jsonl|zip)$/i;

/** Records of a file or a directory tree (symbolic links are not followed). */
export async function readRecordsFromPath(path: string): Promise<ReadResult> {
  const out: ReadResult = { records: [], rejected: [] };
  const info = await lstat(path);
  if (info.isFile()) {
    readRecordsFromBytes(await readFile(path), path, out);
    return out;
  }
  if (!info.isDirectory()) throw new Error(`${path} is neither a file nor a directory`);
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && ADVISORY_FILE.test(entry.name)) {
        readRecordsFromBytes(await readFile(full), relative(path, full) || entry.name, out);
      }
    }
  };
  await walk(path);
  return out;
}

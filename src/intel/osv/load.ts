import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { UnionFind } from './aliases';
import {
  LIMITS,
  parseRawRecords,
  type RawRecord,
  type RecordKeys,
  recordKeys,
  splitOsvText,
} from './parse';
import type { Advisory, RejectedRecord } from './types';

/**
 * Reads OSV advisories from disk for the offline audit: a `.json` file (one record, an array, or
 * an osv.dev `{"vulns": [...]}` answer), a `.jsonl` file, an OSV per-ecosystem export (`all.zip`,
 * one JSON record per entry), or a directory holding any of those (walked recursively, hidden
 * entries skipped). No network.
 */

export interface LoadedAdvisories {
  advisories: Advisory[];
  rejected: RejectedRecord[];
  /** Paths that could not be read at all. */
  errors: Array<{ source: string; message: string }>;
  files: number;
  /** Records read (JSON values), before the package filter. */
  records: number;
}

export interface LoadOptions {
  /**
   * Only fully parse the records of flaws that name one of these packages
   * (`${ecosystem}\u0000${normalised name}`), plus every record joined to them by aliases, so
   * alias groups, canonical ids and severities come out exactly as without the filter. Records
   * that cannot be read at all (bad JSON, no id/modified) are still reported as rejected.
   */
  packages?: ReadonlySet<string>;
}

export const ADVISORY_LOAD_LIMITS = {
  /** One advisory file (.json/.jsonl/.zip) read into memory. */
  fileBytes: 1024 * 1024 * 1024,
  /** One zip entry, uncompressed. */
  zipEntryBytes: LIMITS.recordBytes,
  /** All entries of one zip, uncompressed (zip-bomb guard). */
  zipTotalBytes: 4 * 1024 * 1024 * 1024,
  directoryDepth: 16,
} as const;

const ADVISORY_EXTENSIONS = new Set(['.json', '.jsonl', '.ndjson', '.zip']);

interface Collector {
  out: LoadedAdvisories;
  raw: RawRecord[];
}

function collectText(text: string, source: string, into: Collector): void {
  const { records, rejected } = splitOsvText(text, source);
  into.raw.push(...records);
  into.out.rejected.push(...rejected);
}

function readZip(bytes: Uint8Array, source: string, into: Collector): void {
  const { out } = into;
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        if (!file.name.toLowerCase().endsWith('.json')) return false;
        if (file.originalSize > ADVISORY_LOAD_LIMITS.zipEntryBytes) {
          out.rejected.push({
            source: `${source}!${file.name}`,
            id: null,
            reasons: ['zip entry larger than 16 MiB'],
          });
          return false;
        }
        total += file.originalSize;
        return total <= ADVISORY_LOAD_LIMITS.zipTotalBytes;
      },
    });
  } catch (error) {
    out.errors.push({ source, message: `not a readable zip: ${(error as Error).message}` });
    return;
  }
  if (total > ADVISORY_LOAD_LIMITS.zipTotalBytes) {
    out.errors.push({ source, message: 'zip expands beyond 4 GiB: only part of it was read' });
  }
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (const name of Object.keys(entries).sort()) {
    collectText(decoder.decode(entries[name]), `${source}!${name}`, into);
  }
}

async function loadFile(path: string, into: Collector): Promise<void> {
  const { out } = into;
  const info = await stat(path);
  if (info.size > ADVISORY_LOAD_LIMITS.fileBytes) {
    out.errors.push({
      source: path,
      message: `larger than ${ADVISORY_LOAD_LIMITS.fileBytes} bytes`,
    });
    return;
  }
  out.files++;
  const bytes = await readFile(path);
  if (extname(path).toLowerCase() === '.zip' || (bytes[0] === 0x50 && bytes[1] === 0x4b)) {
    readZip(bytes, path, into);
    return;
  }
  collectText(bytes.toString('utf8'), path, into);
}

async function loadDirectory(dir: string, depth: number, into: Collector): Promise<void> {
  const { out } = into;
  if (depth > ADVISORY_LOAD_LIMITS.directoryDepth) return;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    out.errors.push({
      source: dir,
      message: `cannot read directory (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await loadDirectory(path, depth + 1, into);
    else if (entry.isFile() && ADVISORY_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      await loadFile(path, into);
    }
  }
}

/**
 * The records to parse under a package filter: those in an alias group (union-find over the
 * newest id/aliases of every record) that names a wanted package, and the unreadable ones.
 */
function relevantRecords(raw: readonly RawRecord[], packages: ReadonlySet<string>): RawRecord[] {
  const keys: Array<RecordKeys | null> = raw.map((r) => recordKeys(r.value));
  const newest = new Map<string, RecordKeys>();
  for (const k of keys) {
    if (!k) continue;
    const current = newest.get(k.id);
    if (!current || k.modified > current.modified) newest.set(k.id, k);
  }
  const uf = new UnionFind();
  for (const k of newest.values()) {
    uf.find(k.id);
    for (const alias of k.aliases) uf.union(k.id, alias);
  }
  const roots = new Set<string>();
  for (const k of keys) {
    if (k?.packages.some((p) => packages.has(p))) roots.add(uf.find(k.id));
  }
  return raw.filter((_, i) => {
    const k = keys[i];
    return k === null || k === undefined || roots.has(uf.find(k.id));
  });
}

/** Loads every advisory from the given files and directories. Never throws for bad content. */
export async function loadAdvisories(
  paths: readonly string[],
  options: LoadOptions = {},
): Promise<LoadedAdvisories> {
  const out: LoadedAdvisories = { advisories: [], rejected: [], errors: [], files: 0, records: 0 };
  const into: Collector = { out, raw: [] };
  for (const path of paths) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) await loadDirectory(path, 0, into);
      else await loadFile(path, into);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      out.errors.push({ source: path, message: `cannot read${code ? ` (${code})` : ''}` });
    }
  }
  out.records = into.raw.length;
  const { advisories, rejected } = out;
  const parsed = { advisories, rejected };
  parseRawRecords(
    options.packages ? relevantRecords(into.raw, options.packages) : into.raw,
    parsed,
  );
  return out;
}

import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import {
  type CacheKey,
  cacheKey,
  identify,
  readCachedRecords,
  writeCachedRecords,
} from './advisory-cache';
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
   * (`compositeKey(ecosystem, normalisedName)`), plus every record joined to them by aliases, so
   * alias groups, canonical ids and severities come out exactly as without the filter. Records
   * that cannot be read at all (bad JSON, no id/modified) are still reported as rejected.
   */
  packages?: ReadonlySet<string>;
  /**
   * Keep the package/alias index of the advisory files in this directory between runs
   * (advisory-cache.ts); used only together with `packages`. `codeVersion` names the code that
   * wrote it, so another build never reads it.
   */
  cache?: { dir: string; codeVersion: string };
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

async function readZip(bytes: Uint8Array, source: string, into: Collector): Promise<void> {
  // Loaded for zips only: most audits read JSON Lines, and every module costs start-up time.
  const { unzipSync } = await import('fflate');
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

/** The advisory files under the given paths, in reading order; unreadable paths become errors. */
async function listFiles(paths: readonly string[], out: LoadedAdvisories): Promise<string[]> {
  const files: string[] = [];
  const addFile = async (path: string) => {
    const info = await stat(path);
    if (info.size > ADVISORY_LOAD_LIMITS.fileBytes) {
      out.errors.push({
        source: path,
        message: `larger than ${ADVISORY_LOAD_LIMITS.fileBytes} bytes`,
      });
      return;
    }
    files.push(path);
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
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
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && ADVISORY_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
        await addFile(path);
      }
    }
  };
  for (const path of paths) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) await walk(path, 0);
      else await addFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      out.errors.push({ source: path, message: `cannot read${code ? ` (${code})` : ''}` });
    }
  }
  return files;
}

async function loadFile(path: string, into: Collector): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    into.out.errors.push({ source: path, message: `cannot read${code ? ` (${code})` : ''}` });
    return;
  }
  into.out.files++;
  if (extname(path).toLowerCase() === '.zip' || (bytes[0] === 0x50 && bytes[1] === 0x4b)) {
    await readZip(bytes, path, into);
    return;
  }
  collectText(bytes.toString('utf8'), path, into);
}

/**
 * Every record's keys and the alias groups: union-find over the newest id/aliases of every
 * record (an older version of a record does not join groups its newest version left).
 */
function groupRecords(raw: readonly RawRecord[]): {
  keys: Array<RecordKeys | null>;
  groupOf: (id: string) => string;
} {
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
  return { keys, groupOf: (id) => uf.find(id) };
}

/**
 * The records to parse under a package filter: those in an alias group that names a wanted
 * package, and the unreadable ones (so they are reported).
 */
function relevantRecords(
  raw: readonly RawRecord[],
  groups: ReturnType<typeof groupRecords>,
  packages: ReadonlySet<string>,
): RawRecord[] {
  const { keys, groupOf } = groups;
  const roots = new Set<string>();
  for (const k of keys) {
    if (k?.packages.some((p) => packages.has(p))) roots.add(groupOf(k.id));
  }
  return raw.filter((_, i) => {
    const k = keys[i];
    return k === null || k === undefined || roots.has(groupOf(k.id));
  });
}

/** Loads every advisory from the given files and directories. Never throws for bad content. */
export async function loadAdvisories(
  paths: readonly string[],
  options: LoadOptions = {},
): Promise<LoadedAdvisories> {
  const out: LoadedAdvisories = { advisories: [], rejected: [], errors: [], files: 0, records: 0 };
  const parsed = { advisories: out.advisories, rejected: out.rejected };
  const files = await listFiles(paths, out);
  const { packages } = options;
  // An index is read or written only for a complete, readable set of files.
  let key: CacheKey | null = null;
  if (options.cache && packages && out.errors.length === 0) {
    try {
      key = cacheKey(files.map(identify), options.cache.codeVersion);
    } catch {
      key = null;
    }
    const cached = key === null ? null : readCachedRecords(options.cache.dir, key, packages);
    if (cached) {
      out.files = cached.files;
      out.records = cached.total;
      out.rejected.push(...cached.rejected);
      parseRawRecords(cached.records, parsed);
      return out;
    }
  }
  const into: Collector = { out, raw: [] };
  for (const file of files) await loadFile(file, into);
  out.records = into.raw.length;
  if (!packages) {
    parseRawRecords(into.raw, parsed);
    return out;
  }
  const groups = groupRecords(into.raw);
  if (options.cache && key !== null && out.errors.length === 0) {
    writeCachedRecords(options.cache.dir, key, {
      raw: into.raw,
      keys: groups.keys,
      groupOf: groups.groupOf,
      rejected: out.rejected,
      files: out.files,
    });
  }
  parseRawRecords(relevantRecords(into.raw, groups, packages), parsed);
  return out;
}

import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { LIMITS, parseOsvText } from './parse';
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

function readZip(bytes: Uint8Array, source: string, out: LoadedAdvisories): void {
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
    const parsed = parseOsvText(decoder.decode(entries[name]), `${source}!${name}`);
    out.advisories.push(...parsed.advisories);
    out.rejected.push(...parsed.rejected);
  }
}

async function loadFile(path: string, out: LoadedAdvisories): Promise<void> {
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
    readZip(bytes, path, out);
    return;
  }
  const parsed = parseOsvText(bytes.toString('utf8'), path);
  out.advisories.push(...parsed.advisories);
  out.rejected.push(...parsed.rejected);
}

async function loadDirectory(dir: string, depth: number, out: LoadedAdvisories): Promise<void> {
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
    if (entry.isDirectory()) await loadDirectory(path, depth + 1, out);
    else if (entry.isFile() && ADVISORY_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      await loadFile(path, out);
    }
  }
}

/** Loads every advisory from the given files and directories. Never throws for bad content. */
export async function loadAdvisories(paths: readonly string[]): Promise<LoadedAdvisories> {
  const out: LoadedAdvisories = { advisories: [], rejected: [], errors: [], files: 0 };
  for (const path of paths) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) await loadDirectory(path, 0, out);
      else await loadFile(path, out);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      out.errors.push({ source: path, message: `cannot read${code ? ` (${code})` : ''}` });
    }
  }
  return out;
}

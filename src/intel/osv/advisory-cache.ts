import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { KEY_SEPARATOR } from '../../core/composite-key';
import type { RawRecord, RecordKeys } from './parse';
import { rememberedScoreCount, rememberedScores, rememberScores } from './severity';
import type { RejectedRecord } from './types';

/**
 * The offline audit's advisory index, kept between runs so that a run reads only the records of
 * the flaws naming its packages instead of parsing the whole database, the way osv-scanner keeps
 * its offline database on disk. It caches only what the loader does before validation (splitting
 * files into records and grouping them by package and alias), so a cached run validates and
 * matches the very same records as an uncached one. Keyed by the advisory files' identity (path,
 * size, modification time, inode) and the code version: any change to either is a new index.
 *
 * File layout: `DWOSV1 <header bytes>\n`, the header (JSON), the per-ecosystem sections (JSON,
 * name → flat [record, start, length, ...]), then one `[source, record]` JSON line per record.
 */

const MAGIC = 'DWOSV1';
const FORMAT = 1;
/** Index files kept per cache directory (newest first); older ones are removed on write. */
const KEEP = 4;
const PREFIX_BYTES = 32;

interface Header {
  format: number;
  identity: string;
  records: number;
  files: number;
  rejected: RejectedRecord[];
  /** Records without readable keys (parsed on every run, so they are reported as rejected). */
  always: number[];
  /** Ecosystem → [offset, length] of its section. */
  sections: Record<string, [number, number]>;
}

export interface CachedLoad {
  records: RawRecord[];
  rejected: RejectedRecord[];
  total: number;
  files: number;
}

export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

export function identify(path: string): FileIdentity {
  const info = statSync(path);
  return { path, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
}

export interface CacheKey {
  /** File name part: a 64-bit FNV-1a of `identity` (node:crypto costs a cached run 4 ms to load). */
  name: string;
  /** Everything the index depends on, stored in its header and compared on read. */
  identity: string;
}

export function cacheKey(files: readonly FileIdentity[], codeVersion: string): CacheKey {
  const identity = JSON.stringify([FORMAT, codeVersion, files]);
  let low = 0x811c9dc5;
  let high = 0xcbf29ce4;
  for (let i = 0; i < identity.length; i++) {
    const c = identity.charCodeAt(i);
    low = Math.imul(low ^ c, 0x01000193) >>> 0;
    high = Math.imul(high ^ c ^ (low >>> 7), 0x01000193) >>> 0;
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return { name: `${hex(high)}${hex(low)}`, identity };
}

const indexPath = (dir: string, key: CacheKey) => join(dir, `osv-${key.name}.idx`);

function readAt(fd: number, start: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, start + done);
    if (n === 0) throw new Error('index truncated');
    done += n;
  }
  return buffer;
}

function isLocationList(value: unknown, size: number): value is number[] {
  if (!Array.isArray(value) || value.length % 3 !== 0) return false;
  for (let i = 0; i < value.length; i += 3) {
    const [index, start, length] = [value[i], value[i + 1], value[i + 2]];
    if (!Number.isSafeInteger(index) || !Number.isSafeInteger(start)) return false;
    if (!Number.isSafeInteger(length) || start < 0 || length <= 0 || start + length > size) {
      return false;
    }
  }
  return true;
}

function isHeaderSummary(header: Header): boolean {
  return (
    Number.isSafeInteger(header.records) &&
    Number.isSafeInteger(header.files) &&
    Array.isArray(header.rejected) &&
    header.rejected.every(
      (r) =>
        typeof r?.source === 'string' &&
        (r.id === null || typeof r.id === 'string') &&
        Array.isArray(r.reasons) &&
        r.reasons.every((reason) => typeof reason === 'string'),
    ) &&
    typeof header.sections === 'object' &&
    header.sections !== null
  );
}

/**
 * The cached records naming any of `packages` (`compositeKey(ecosystem, name)`, alias groups whole),
 * in database order, or null when there is no usable index (missing, damaged, other format).
 */
export function readCachedRecords(
  dir: string,
  key: CacheKey,
  packages: ReadonlySet<string>,
): CachedLoad | null {
  let fd: number;
  try {
    fd = openSync(indexPath(dir, key), 'r');
  } catch {
    return null;
  }
  try {
    const size = statSync(indexPath(dir, key)).size;
    const prefix = readAt(fd, 0, Math.min(PREFIX_BYTES, size)).toString('latin1');
    const match = /^DWOSV1 (\d{1,12})\n/.exec(prefix);
    if (!match) return null;
    const headerStart = match[0].length;
    const headerLength = Number(match[1]);
    if (headerStart + headerLength > size) return null;
    const header = JSON.parse(readAt(fd, headerStart, headerLength).toString('utf8')) as Header;
    if (header.format !== FORMAT || header.identity !== key.identity) return null;
    if (!isLocationList(header.always, size) || !isHeaderSummary(header)) return null;

    const wanted = new Map<string, string[]>();
    for (const pkg of packages) {
      const cut = pkg.indexOf(KEY_SEPARATOR);
      const ecosystem = pkg.slice(0, cut);
      const names = wanted.get(ecosystem) ?? [];
      names.push(pkg.slice(cut + 1));
      wanted.set(ecosystem, names);
    }
    const locations = new Map<number, [number, number]>();
    const add = (list: number[]) => {
      for (let i = 0; i < list.length; i += 3) {
        locations.set(list[i]!, [list[i + 1]!, list[i + 2]!]);
      }
    };
    add(header.always);
    for (const [ecosystem, names] of wanted) {
      const at = Object.hasOwn(header.sections, ecosystem) ? header.sections[ecosystem] : undefined;
      if (!at) continue;
      const section = JSON.parse(readAt(fd, at[0], at[1]).toString('utf8')) as Record<
        string,
        unknown
      >;
      for (const name of names) {
        const list = Object.hasOwn(section, name) ? section[name] : undefined;
        if (list === undefined) continue;
        if (!isLocationList(list, size)) return null;
        add(list);
      }
    }
    const records: RawRecord[] = [];
    for (const index of [...locations.keys()].sort((a, b) => a - b)) {
      const [start, length] = locations.get(index)!;
      const line = JSON.parse(readAt(fd, start, length).toString('utf8')) as unknown;
      if (!Array.isArray(line) || typeof line[0] !== 'string') return null;
      records.push({ source: line[0], value: line[1] });
    }
    return { records, rejected: header.rejected, total: header.records, files: header.files };
  } catch {
    // A damaged index is rebuilt by the caller, never trusted.
    return null;
  } finally {
    closeSync(fd);
  }
}

interface CacheInput {
  raw: readonly RawRecord[];
  keys: ReadonlyArray<RecordKeys | null>;
  groupOf: (id: string) => string;
  rejected: readonly RejectedRecord[];
  files: number;
}

/**
 * Record indices by ecosystem and package: records by alias group, then each package's list is
 * every record of the groups naming it. Records without keys are in `always`.
 */
function packageSections(keys: CacheInput['keys'], groupOf: CacheInput['groupOf']) {
  const members = new Map<string, number[]>();
  const groupsOfPackage = new Map<string, Set<string>>();
  const always: number[] = [];
  keys.forEach((k, i) => {
    if (!k) {
      always.push(i);
      return;
    }
    const root = groupOf(k.id);
    const list = members.get(root);
    if (list) list.push(i);
    else members.set(root, [i]);
    for (const pkg of k.packages) {
      const roots = groupsOfPackage.get(pkg);
      if (roots) roots.add(root);
      else groupsOfPackage.set(pkg, new Set([root]));
    }
  });
  const perEcosystem = new Map<string, Record<string, number[]>>();
  for (const [pkg, roots] of groupsOfPackage) {
    const cut = pkg.indexOf(KEY_SEPARATOR);
    const ecosystem = pkg.slice(0, cut);
    const section = perEcosystem.get(ecosystem) ?? {};
    perEcosystem.set(ecosystem, section);
    const indices = [...roots].flatMap((root) => members.get(root) ?? []).sort((a, b) => a - b);
    section[pkg.slice(cut + 1)] = indices;
  }
  return { perEcosystem, always };
}

/**
 * Layout: prefix, header, records, sections. Record and section offsets depend on the header's
 * length, which depends on those offsets' digits: iterate until it is stable (null if it never is).
 */
function layOut(
  key: CacheKey,
  input: CacheInput,
  lines: Buffer[],
  sections: ReturnType<typeof packageSections>,
): { headerText: string; headerLength: number; sectionBuffers: Buffer[] } | null {
  const recordAt: Array<[number, number]> = [];
  let recordBytes = 0;
  for (const line of lines) {
    recordAt.push([recordBytes, line.length]);
    recordBytes += line.length;
  }
  const locate = (indices: number[], base: number) =>
    indices.flatMap((i) => [i, base + recordAt[i]![0], recordAt[i]![1]]);
  let headerLength = 0;
  let headerText = '';
  let sectionBuffers: Buffer[] = [];
  for (let attempt = 0; attempt < 8; attempt++) {
    const base = `${MAGIC} ${headerLength}\n`.length + headerLength;
    const sectionsAt: Record<string, [number, number]> = {};
    let sectionOffset = base + recordBytes;
    sectionBuffers = [...sections.perEcosystem].map(([ecosystem, section]) => {
      const located: Record<string, number[]> = {};
      for (const [name, indices] of Object.entries(section)) located[name] = locate(indices, base);
      const buffer = Buffer.from(JSON.stringify(located), 'utf8');
      sectionsAt[ecosystem] = [sectionOffset, buffer.length];
      sectionOffset += buffer.length;
      return buffer;
    });
    const header: Header = {
      format: FORMAT,
      identity: key.identity,
      records: input.raw.length,
      files: input.files,
      rejected: [...input.rejected],
      always: locate(sections.always, base),
      sections: sectionsAt,
    };
    headerText = JSON.stringify(header);
    const length = Buffer.byteLength(headerText, 'utf8');
    if (length === headerLength) break;
    headerLength = length;
  }
  if (Buffer.byteLength(headerText, 'utf8') !== headerLength) return null;
  return { headerText, headerLength, sectionBuffers };
}

/**
 * Writes the index of `raw` (every record read, in order, with its keys and alias-group root).
 * Best effort: a cache that cannot be written only costs speed, so errors are swallowed.
 */
export function writeCachedRecords(dir: string, key: CacheKey, input: CacheInput): void {
  const lines = input.raw.map((r) =>
    Buffer.from(`${JSON.stringify([r.source, r.value])}\n`, 'utf8'),
  );
  const sections = packageSections(input.keys, input.groupOf);
  try {
    const layout = layOut(key, input, lines, sections);
    if (!layout) return;
    const prefix = `${MAGIC} ${layout.headerLength}\n`;
    mkdirSync(dir, { recursive: true });
    const temporary = join(dir, `.osv-${key.name}.${process.pid}.tmp`);
    writeFileSync(
      temporary,
      Buffer.concat([
        Buffer.from(prefix + layout.headerText, 'utf8'),
        ...lines,
        ...layout.sectionBuffers,
      ]),
    );
    renameSync(temporary, indexPath(dir, key));
    prune(dir, 'osv-', '.idx');
  } catch {
    // Read-only or full disk: the next run reads the advisories again.
  }
}

/**
 * CVSS scores by vector (severity.ts), kept beside the indexes per code version: a cached run
 * then scores only vectors no earlier run met. Returns how many scores are known after loading.
 */
export function loadScoreTable(dir: string, codeVersion: string): number {
  try {
    rememberScores(JSON.parse(readFileSync(scoreTablePath(dir, codeVersion), 'utf8')));
  } catch {
    // Missing or damaged: scores are computed again and the table rewritten.
  }
  return rememberedScoreCount();
}

/** Saves the known scores when there are more than `loaded`; best effort like the index. */
export function saveScoreTable(dir: string, codeVersion: string, loaded: number): void {
  if (rememberedScoreCount() <= loaded) return;
  try {
    mkdirSync(dir, { recursive: true });
    const path = scoreTablePath(dir, codeVersion);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(rememberedScores()));
    renameSync(temporary, path);
    prune(dir, 'cvss-', '.json');
  } catch {
    // Read-only or full disk: the next run scores again.
  }
}

const scoreTablePath = (dir: string, codeVersion: string) =>
  join(dir, `cvss-${cacheKey([], codeVersion).name}.json`);

function prune(dir: string, prefix: string, suffix: string): void {
  const indexes = readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && name.endsWith(suffix))
    .map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of indexes.slice(KEEP)) rmSync(join(dir, old.name), { force: true });
}

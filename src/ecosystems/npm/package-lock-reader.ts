import { JsonReadError, JsonReader, type TextSource } from '../shared/json-reader';
import { isRecord, setOwn } from './common';

/**
 * package-lock.json read entry by entry (docs/extraction.md, "Large lockfiles"): instead of one
 * `JSON.parse` of the whole file (a 50 MB lock becomes a tree of several hundred MB, half of it
 * the v2 `dependencies` copy the extractor never reads), the text is checked against the JSON
 * grammar without building anything, and only the `packages` entries are parsed, one small entry
 * at a time, each reduced at once to the fields the extractor reads. The text may be in memory
 * or arrive in pieces from the file (`streamLockPackages`): then it is never held whole, only the
 * piece at hand and the entry being read.
 *
 * Returns null whenever the answer might differ from the whole-file path (`JSON.parse` and the
 * line search of extract-package-lock.ts): text that is not JSON, a top level that is not an
 * object, no `packages` object or more than one (a v1 lock), an entry `JSON.parse` refuses
 * (nesting too deep), keys `JSON.parse` would order or merge differently (integer-like keys,
 * duplicates), and keys the line search would find elsewhere (written with escapes, or their text
 * also inside the entry before them). The caller then takes the whole-file path, which reports
 * those cases as before.
 */
export interface LockPackages {
  lockfileVersion: unknown;
  packages: Record<string, unknown>;
  /** 1-based line of each `packages` key, in key order. */
  lines: number[];
}

/** What the extractor reads of a `packages` entry (extract-package-lock.ts). */
const ENTRY_FIELDS = [
  'name',
  'version',
  'resolved',
  'link',
  'dev',
  'devOptional',
  'optional',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'devDependencies',
] as const;

function slim(entry: unknown): unknown {
  if (!isRecord(entry)) return entry;
  const out: Record<string, unknown> = {};
  for (const field of ENTRY_FIELDS) {
    if (Object.hasOwn(entry, field)) setOwn(out, field, entry[field]);
  }
  return out;
}

/** The whole-file path would answer differently (or might): hand the file back to it. */
class NotForThisPath extends Error {}

/** Keys `JSON.parse` puts first, in numeric order (array indices). */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(key) && Number(key) < 4_294_967_295;
}

/**
 * The `packages` object at the reader's position. `from` is the document offset of the top-level
 * `"packages":`, where the whole-file path starts its line search; each key must be the first
 * place its `"<key>":` text occurs after the key before it (the held text from there on is
 * searched), so that search finds the same lines.
 */
function readPackages(reader: JsonReader, from: number): Pick<LockPackages, 'packages' | 'lines'> {
  const packages: Record<string, unknown> = {};
  const lines: number[] = [];
  let searchFrom = from;
  reader.hold(searchFrom);
  reader.readObject((key, at) => {
    if (Object.hasOwn(packages, key) || isArrayIndex(key)) throw new NotForThisPath();
    if (reader.indexOf(`${JSON.stringify(key)}:`, searchFrom) !== at) throw new NotForThisPath();
    lines.push(reader.lineOf(at));
    searchFrom = at + 1;
    reader.hold(searchFrom);
    const { start, end } = reader.skipValue();
    setOwn(packages, key, slim(JSON.parse(reader.slice(start, end))));
  });
  reader.release();
  return { packages, lines };
}

function readLock(reader: JsonReader): LockPackages | null {
  let lockfileVersion: unknown;
  let read: Pick<LockPackages, 'packages' | 'lines'> | null = null;
  // Everything before `packages` stays held: the line search starts at its first `"packages":`.
  reader.hold(0);
  try {
    if (reader.peek() !== 123) return null;
    reader.readObject((key, at) => {
      if (key === 'packages') {
        // One `packages` object, whose key is the first `"packages":` of the text.
        if (read || reader.peek() !== 123 || reader.indexOf('"packages":', 0) !== at) {
          throw new NotForThisPath();
        }
        read = readPackages(reader, at);
        return;
      }
      const hold = key === 'lockfileVersion';
      const { start, end } = reader.skipValue(hold);
      if (hold) lockfileVersion = JSON.parse(reader.slice(start, end));
    });
    reader.end();
  } catch (error) {
    // Not JSON (JsonReadError), a value JSON.parse refuses (too deep), or a lock the whole-file
    // path reads differently: that path.
    if (error instanceof JsonReadError || error instanceof NotForThisPath) return null;
    if (error instanceof RangeError || error instanceof SyntaxError) return null;
    throw error;
  }
  const done = read as Pick<LockPackages, 'packages' | 'lines'> | null;
  return done ? { lockfileVersion, ...done } : null;
}

/** A lock held in memory, read entry by entry. */
export function readLockPackages(text: string): LockPackages | null {
  return readLock(new JsonReader(text));
}

/** A lock arriving in pieces (a file read in chunks), read entry by entry and never held whole. */
export function streamLockPackages(source: TextSource): LockPackages | null {
  return readLock(new JsonReader('', source));
}

import { JsonReadError, JsonReader } from '../shared/json-reader';
import { isRecord, setOwn } from './common';

/**
 * package-lock.json read entry by entry (docs/extraction.md, "Large lockfiles"): instead of one
 * `JSON.parse` of the whole file (a 50 MB lock becomes a tree of several hundred MB, half of it
 * the v2 `dependencies` copy the extractor never reads), the text is checked against the JSON
 * grammar without building anything, and only the `packages` entries are parsed, one small entry
 * at a time, each reduced at once to the fields the extractor reads. The object handed back has
 * the same keys in the same order (built with the same own-property semantics as `JSON.parse`,
 * so integer-like keys and duplicates order alike) and the same values for those fields.
 *
 * Returns null whenever the answer might differ from `JSON.parse`: text that is not JSON, a top
 * level that is not an object, a last `packages` that is not an object (a v1 lock), or an entry
 * `JSON.parse` refuses (nesting too deep). The caller then takes the whole-file path, which
 * reports those cases as before.
 */
export interface LockPackages {
  lockfileVersion: unknown;
  packages: Record<string, unknown>;
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

function readPackages(reader: JsonReader): Record<string, unknown> {
  const packages: Record<string, unknown> = {};
  const { text } = reader;
  reader.readObject((key) => {
    const { start, end } = reader.skipValue();
    setOwn(packages, key, slim(JSON.parse(text.slice(start, end))));
  });
  return packages;
}

export function readLockPackages(text: string): LockPackages | null {
  const reader = new JsonReader(text);
  let lockfileVersion: unknown;
  let packages: Record<string, unknown> | null = null;
  try {
    if (reader.peek() !== 123) return null;
    reader.readObject((key) => {
      if (key === 'packages') {
        // The last `packages` wins, as in JSON.parse; a later non-object one makes it v1-shaped.
        if (reader.peek() === 123) packages = readPackages(reader);
        else {
          reader.skipValue();
          packages = null;
        }
        return;
      }
      const { start, end } = reader.skipValue();
      if (key === 'lockfileVersion') lockfileVersion = JSON.parse(text.slice(start, end));
    });
    reader.end();
  } catch (error) {
    // Not JSON (JsonReadError) or a value JSON.parse refuses (too deep): the whole-file path.
    if (error instanceof JsonReadError || error instanceof RangeError) return null;
    if (error instanceof SyntaxError) return null;
    throw error;
  }
  return packages ? { lockfileVersion, packages } : null;
}

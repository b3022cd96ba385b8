import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, inputOf } from '../../../test/support/npm-extract';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../../test/support/shared-data';
import type { ExtractionResult } from '../types';
import { extractPackageLock, extractPackageLockStream } from './extract-package-lock';
import { readLockPackages, streamLockPackages } from './package-lock-reader';

/**
 * The entry-by-entry reading of large locks (./package-lock-reader.ts) must give exactly what the
 * whole-file parse gives: every lock here is extracted the whole way (threshold never), entry by
 * entry from memory (threshold 0) and streamed in pieces of several sizes (what a scan does with
 * a file of 4 MiB and more: the whole way when the streamed reading hands it back), and the
 * results compared in full (entries, lines, parents, errors).
 */
const PIECES = [1, 7, 4096];

/** `text` handed out `size` characters at a time. */
function pieces(text: string, size: number): () => string | null {
  let at = 0;
  return () => {
    if (at >= text.length) return null;
    const piece = text.slice(at, at + size);
    at += size;
    return piece;
  };
}

let streamedCount = 0;

function streamed(
  path: string,
  text: string,
  files: Record<string, string>,
  size: number,
): ExtractionResult {
  const input = inputOf(path, text, files);
  const read = extractPackageLockStream({
    path,
    text: pieces(text, size),
    readFile: input.readFile,
  });
  if (read) streamedCount++;
  return read ?? extractPackageLock(input, Number.POSITIVE_INFINITY);
}

const bothWays = (
  path: string,
  text: string,
  files: Record<string, string> = {},
  sizes: readonly number[] = PIECES,
) => {
  const whole = extractPackageLock(inputOf(path, text, files), Number.POSITIVE_INFINITY);
  const incremental = extractPackageLock(inputOf(path, text, files), 0);
  for (const size of sizes)
    expect(streamed(path, text, files, size), `pieces of ${size}`).toEqual(whole);
  return { whole, incremental };
};

const FIXTURES = [
  'shrinkwrap.json',
  'truncated-lockfile.json',
  'v1-nested.json',
  'v2-with-dev-and-optional.json',
  'v3-workspaces.json',
  'one-bad-entry.json',
  'not-json.txt',
];

const entry = (version: string, extra = '') =>
  `{"version":"${version}","resolved":"https://registry.example/x.tgz"${extra}}`;

/** Locks whose JSON semantics are easy to get wrong outside JSON.parse. */
const EDGE_CASES: Record<string, string> = {
  'duplicate keys (first position, last value)': `{"lockfileVersion":3,"packages":{"":{"name":"app","dependencies":{"a":"1"}},"node_modules/a":${entry('1.0.0')},"node_modules/b":${entry('2.0.0')},"node_modules/a":${entry('1.5.0')}}}`,
  'integer-like keys (ordered first by JSON.parse)': `{"lockfileVersion":3,"packages":{"node_modules/x":${entry('1.0.0')},"10":{"name":"ten","version":"1.0.0"},"2":{"name":"two","version":"2.0.0"},"node_modules/ten":{"link":true,"resolved":"10"}}}`,
  '__proto__ keys': `{"lockfileVersion":3,"__proto__":{"packages":1},"packages":{"__proto__":${entry('1.0.0')},"node_modules/__proto__":${entry('1.0.0', ',"__proto__":{"dev":true}')}}}`,
  'packages twice, the last one wins': `{"lockfileVersion":3,"packages":{"node_modules/a":${entry('1.0.0')}},"packages":{"node_modules/b":${entry('2.0.0')}}}`,
  'packages twice, the last one not an object': `{"lockfileVersion":1,"packages":{"node_modules/a":${entry('1.0.0')}},"packages":[],"dependencies":{"c":{"version":"3.0.0"}}}`,
  'no lockfileVersion': `{"packages":{"node_modules/a":${entry('1.0.0')}}}`,
  'lockfileVersion a string': `{"lockfileVersion":"3","packages":{"node_modules/a":${entry('1.0.0')}}}`,
  'entries of the wrong type': `{"lockfileVersion":3,"packages":{"node_modules/a":"1.0.0","node_modules/b":null,"node_modules/c":[1],"node_modules/d":{"version":7}}}`,
  'escaped keys and values': `{"lockfileVersion":3,"packages":{"node_modules/\\u0061":{"version":"1.0.\\u0030"},"node_modules/@s\\/b":${entry('1.0.0')}}}`,
  'deeply nested entry': `{"lockfileVersion":3,"packages":{"node_modules/a":{"version":"1.0.0","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}}}`,
  'trailing comma (not JSON)': `{"lockfileVersion":3,"packages":{"node_modules/a":${entry('1.0.0')},}}`,
  'truncated inside packages': `{"lockfileVersion":3,"packages":{"node_modules/a":${entry('1.0.0')},"node_modules/b":{"vers`,
  'top level an array': `[{"lockfileVersion":3}]`,
  'v2 with the dependencies copy': `{"name":"app","version":"1.0.0","lockfileVersion":2,"requires":true,"packages":{"":{"name":"app","version":"1.0.0","dependencies":{"a":"^1"},"devDependencies":{"b":"^2"}},"node_modules/a":${entry('1.0.0', ',"dependencies":{"b":"^2"}')},"node_modules/b":${entry('2.0.0', ',"dev":true')}},"dependencies":{"a":{"version":"1.0.0"},"b":{"version":"2.0.0","dev":true}}}`,
  'pretty-printed with CRLF': `{\r\n  "lockfileVersion": 3,\r\n  "packages": {\r\n    "": {"name": "app"},\r\n    "node_modules/a": ${entry('1.0.0')}\r\n  }\r\n}\r\n`,
};

function sharedLocks(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sharedLocks(path, out);
    else if (name === 'package-lock.json' || name === 'npm-shrinkwrap.json') out.push(path);
  }
  return out;
}

describe('package-lock.json read entry by entry', () => {
  it.each(FIXTURES)('gives what the whole-file parse gives: fixture %s', (name) => {
    const { whole, incremental } = bothWays(`app/${name}`, fixture(name), {
      'app/package.json': fixture('v1-nested.package.json'),
    });
    expect(incremental).toEqual(whole);
  });

  it.each(Object.entries(EDGE_CASES))('gives what the whole-file parse gives: %s', (_, text) => {
    const { whole, incremental } = bothWays('package-lock.json', text);
    expect(incremental).toEqual(whole);
  });

  it('streams the ordinary locks (the streamed way is taken, not handed back)', () => {
    for (const name of ['v2-with-dev-and-optional.json', 'v3-workspaces.json', 'shrinkwrap.json']) {
      const text = fixture(name);
      expect(streamLockPackages(pieces(text, 5)), name).not.toBeNull();
      expect(streamLockPackages(pieces(text, 5))).toEqual(readLockPackages(text));
    }
    const before = streamedCount;
    bothWays('package-lock.json', EDGE_CASES['v2 with the dependencies copy'] as string);
    expect(streamedCount - before).toBe(PIECES.length);
  });

  it.each([
    ['integer-like keys', EDGE_CASES['integer-like keys (ordered first by JSON.parse)']],
    ['duplicate keys', EDGE_CASES['duplicate keys (first position, last value)']],
    ['escaped keys', EDGE_CASES['escaped keys and values']],
    ['two packages objects', EDGE_CASES['packages twice, the last one wins']],
    [
      "a key's text inside the entry before it (the line search would stop there)",
      '{"lockfileVersion":3,"packages":{\n"node_modules/a":{"version":"1.0.0","x":{"node_modules/b":1}},\n"node_modules/b":{"version":"2.0.0"}}}',
    ],
  ])('hands %s back to the whole-file path', (_, text) => {
    expect(readLockPackages(text as string)).toBeNull();
    expect(streamLockPackages(pieces(text as string, 3))).toBeNull();
  });

  it('hands back only the packages, each entry reduced to the fields the extractor reads', () => {
    const read = readLockPackages(EDGE_CASES['v2 with the dependencies copy'] as string);
    expect(read?.lockfileVersion).toBe(2);
    expect(read?.packages['node_modules/a']).toEqual({
      version: '1.0.0',
      resolved: 'https://registry.example/x.tgz',
      dependencies: { b: '^2' },
    });
  });

  it.each([
    ['not JSON', '{"packages": {'],
    ['a v1 lock', '{"lockfileVersion":1,"dependencies":{}}'],
    ['a scalar', '42'],
  ])('leaves %s to the whole-file path (null)', (_, text) => {
    expect(readLockPackages(text)).toBeNull();
  });

  describe.skipIf(!sharedDataDir)('on the shared corpus', () => {
    it('gives what the whole-file parse gives on every package-lock.json', () => {
      if (!sharedDataDir) throw new Error(SHARED_DATA_MISSING);
      const locks = sharedLocks(sharedDataDir);
      expect(locks.length).toBeGreaterThan(3);
      let streamedLocks = 0;
      for (const path of locks) {
        const text = readFileSync(path, 'utf8');
        const manifest = join(path, '..', 'package.json');
        const files: Record<string, string> = {};
        try {
          files['package.json'] = readFileSync(manifest, 'utf8');
        } catch {
          // No manifest beside it.
        }
        const before = streamedCount;
        const { whole, incremental } = bothWays('package-lock.json', text, files, [61, 65_536]);
        expect(incremental, path).toEqual(whole);
        expect(whole.dependencies.length, path).toBeGreaterThan(0);
        if (streamedCount > before) streamedLocks++;
      }
      // The corpus's v2/v3 locks take the streamed way; only v1 locks are handed back.
      expect(streamedLocks).toBeGreaterThan(0);
    });
  });
});

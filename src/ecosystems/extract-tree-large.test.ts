import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractPath } from './extract-tree';
import { extractPackageLock } from './npm/extract-package-lock';
import { readLockPackages } from './npm/package-lock-reader';

/**
 * Large files read from disk in pieces (`Extractor.stream`, docs/extraction.md "Large
 * lockfiles"): the engine's streamed path gives what the whole-file path gives, and hands files
 * that are not text to it, which names the problem.
 */
const dir = mkdtempSync(join(tmpdir(), 'driftwatch-tree-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A v3 lock of about `megabytes` MB with non-ASCII text, so pieces split characters. */
function bigLock(megabytes: number): string {
  const entries = [
    '"": {"name": "gross-app", "version": "1.0.0", "dependencies": {"pkg-0": "^1"}}',
  ];
  let size = 0;
  for (let i = 0; size < megabytes * 1024 * 1024; i++) {
    const entry = `"node_modules/pkg-${i}": {"version": "1.${i % 50}.0", "resolved": "https://registry.example/pkg-${i}.tgz", "license": "Größe-日本-${i}", "dependencies": {"pkg-${i + 1}": "^1"}}`;
    entries.push(entry);
    size += entry.length;
  }
  return `{\n  "name": "gross-app",\n  "lockfileVersion": 3,\n  "packages": {\n    ${entries.join(',\n    ')}\n  }\n}\n`;
}

describe('a large package-lock.json from disk', () => {
  it('is streamed (never held whole) with the result of the whole-file parse', async () => {
    const text = bigLock(5);
    const root = mkdtempSync(join(dir, 'tree-'));
    writeFileSync(join(root, 'package-lock.json'), `\ufeff${text}`);
    const { files } = await extractPath(root);
    const whole = extractPackageLock(
      { path: 'package-lock.json', text, readFile: () => null },
      Number.POSITIVE_INFINITY,
    );
    expect(files).toHaveLength(1);
    expect(files[0]?.format).toBe('package-lock.json v3');
    expect(files[0]?.errors).toEqual(whole.errors);
    expect(files[0]?.dependencies).toEqual(whole.dependencies);
    expect(whole.dependencies.length).toBeGreaterThan(20_000);
    // The streamed reading takes such a lock (it hands nothing back to the whole-file path).
    expect(readLockPackages(text)).not.toBeNull();
  }, 60_000);

  it('names a binary or non-UTF-8 file as the whole-file path does', async () => {
    const text = bigLock(5);
    const root = mkdtempSync(join(dir, 'bad-'));
    writeFileSync(join(root, 'package-lock.json'), `${text.slice(0, -10)}\u0000${text.slice(-9)}`);
    const bad = Buffer.from(text);
    bad[bad.length - 20] = 0xff;
    mkdirSync(join(root, 'b'));
    writeFileSync(join(root, 'b', 'package-lock.json'), bad);
    const { files } = await extractPath(root);
    expect(files.map((f) => [f.path, f.errors.map((e) => e.message)])).toEqual([
      ['b/package-lock.json', ['not valid UTF-8 text: not parsed']],
      ['package-lock.json', ['binary file (contains NUL bytes): not parsed']],
    ]);
  }, 60_000);
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTION_LIMITS, ExtractionStopped, extractInWorker } from './extraction';

/** A generated package-lock.json of about `megabytes` MB. */
function bigLockfile(megabytes: number): string {
  const packages: Record<string, unknown> = { '': { name: 'big', dependencies: {} } };
  let size = 0;
  for (let i = 0; size < megabytes * 1024 * 1024; i++) {
    const name = `pkg-${i.toString(36)}`;
    const entry = {
      version: `1.${i % 100}.0`,
      license: 'MIT',
      integrity: `sha512-${'A'.repeat(86)}`,
    };
    packages[`node_modules/${name}`] = entry;
    size += name.length + 150;
  }
  return JSON.stringify({ name: 'big', lockfileVersion: 3, packages });
}

const SMALL = JSON.stringify({
  name: 'small',
  lockfileVersion: 3,
  packages: { '': { dependencies: { kept: '1.0.0' } }, 'node_modules/kept': { version: '1.0.0' } },
});

/**
 * The extraction worker's limits: a file that is too slow, too big or too hungry is given up
 * with an error and the next file is still read; the scan's own time limit stops everything.
 */
describe('extraction in a worker thread', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'driftwatch-extraction-'));
    mkdirSync(join(root, 'a'));
    mkdirSync(join(root, 'b'));
    writeFileSync(join(root, 'a', 'package-lock.json'), bigLockfile(12));
    writeFileSync(join(root, 'b', 'package-lock.json'), SMALL);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const summary = (
    files: { path: string; dependencies: unknown[]; errors: { message: string }[] }[],
  ) =>
    files.map((f) => ({
      path: f.path,
      count: f.dependencies.length,
      error: f.errors[0]?.message ?? null,
    }));

  it('reads every file within the limits', async () => {
    const { files } = await extractInWorker(root);
    expect(summary(files)).toEqual([
      { path: 'a/package-lock.json', count: expect.any(Number), error: null },
      { path: 'b/package-lock.json', count: 1, error: null },
    ]);
    expect(files[0]?.dependencies.length).toBeGreaterThan(40_000);
  }, 60_000);

  it('gives up a file over its time limit and continues with the next one', async () => {
    const { files } = await extractInWorker(root, {
      ...DEFAULT_EXTRACTION_LIMITS,
      fileTimeoutMs: 50,
    });
    expect(summary(files)).toEqual([
      { path: 'a/package-lock.json', count: 0, error: 'took longer than 0.05 s: given up' },
      { path: 'b/package-lock.json', count: 1, error: null },
    ]);
  }, 60_000);

  it('gives up a file that exhausts the worker heap and continues', async () => {
    const { files } = await extractInWorker(root, { ...DEFAULT_EXTRACTION_LIMITS, maxHeapMb: 16 });
    expect(summary(files)).toEqual([
      {
        path: 'a/package-lock.json',
        count: 0,
        error: 'needed more than the 16 MiB extraction memory limit: given up',
      },
      { path: 'b/package-lock.json', count: 1, error: null },
    ]);
  }, 60_000);

  it('refuses a file over the size bound unread', async () => {
    const { files } = await extractInWorker(root, {
      ...DEFAULT_EXTRACTION_LIMITS,
      maxFileBytes: 1024 * 1024,
    });
    expect(files[0]?.errors[0]?.message).toMatch(/above the 1048576-byte limit: not parsed/);
    expect(files[1]?.dependencies).toHaveLength(1);
  }, 60_000);

  it("keeps no entries of a file that would pass the scan's dependency limit, and says so", async () => {
    const { files } = await extractInWorker(root, {
      ...DEFAULT_EXTRACTION_LIMITS,
      maxDependencies: 10,
    });
    expect(summary(files)).toEqual([
      {
        path: 'a/package-lock.json',
        count: 0,
        error: expect.stringMatching(
          /^the scan's limit of 10 dependencies \(SCAN_MAX_DEPENDENCIES\) was reached: this file's \d{5,} entries were not kept$/,
        ),
      },
      // A later file that still fits is kept.
      { path: 'b/package-lock.json', count: 1, error: null },
    ]);
  }, 60_000);

  it('stops the whole extraction at the scan time limit', async () => {
    await expect(
      extractInWorker(root, { ...DEFAULT_EXTRACTION_LIMITS, scanTimeoutMs: 20 }),
    ).rejects.toBeInstanceOf(ExtractionStopped);
  }, 60_000);

  it('stops when the run is cancelled', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 20);
    await expect(
      extractInWorker(root, DEFAULT_EXTRACTION_LIMITS, abort.signal),
    ).rejects.toBeInstanceOf(ExtractionStopped);
  }, 60_000);
});

import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheKey, identify, readCachedRecords } from './advisory-cache';
import { loadAdvisories } from './load';

const record = (id: string, ecosystem: string, name: string, aliases: string[] = []) => ({
  id,
  modified: '2024-01-01T00:00:00Z',
  aliases,
  affected: [
    {
      package: { ecosystem, name },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }],
    },
  ],
});

const lines = (values: unknown[]) =>
  `${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')}\n`;

describe('advisory index cache', () => {
  let dir: string;
  let cacheDir: string;
  let file: string;
  const packages = new Set(['npm\u0000left-pad', 'PyPI\u0000requests']);
  const indexes = () => readdirSync(cacheDir).filter((n) => n.endsWith('.idx'));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-cache-src-'));
    cacheDir = join(dir, 'cache');
    file = join(dir, 'advisories.jsonl');
    writeFileSync(
      file,
      lines([
        record('GHSA-aaaa-0000-0001', 'npm', 'left-pad', ['CVE-2024-1000']),
        // Joined to the left-pad flaw by its CVE although it names another package.
        record('GO-2024-0001', 'Go', 'example.com/other', ['CVE-2024-1000']),
        record('PYSEC-2024-1', 'PyPI', 'requests'),
        record('PYSEC-2024-2', 'PyPI', 'unrelated'),
        '{"id": "broken", "modified": "never"}',
        'not json',
      ]),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a cached load reads the same records as an uncached one, and only the wanted ones', async () => {
    const uncached = await loadAdvisories([file], { packages });
    const cache = { dir: cacheDir, codeVersion: 'test' };
    const first = await loadAdvisories([file], { packages, cache });
    expect(indexes()).toHaveLength(1);
    const key = cacheKey([identify(file)], 'test');
    const cached = readCachedRecords(cacheDir, key, packages);
    expect(cached?.records.map((r) => (r.value as { id: string }).id)).toEqual([
      'GHSA-aaaa-0000-0001',
      'GO-2024-0001',
      'PYSEC-2024-1',
      'broken',
    ]);
    const second = await loadAdvisories([file], { packages, cache });
    expect(first).toEqual(uncached);
    expect(second).toEqual(uncached);
    expect(second.records).toBe(5);
    expect(second.rejected.map((r) => r.source.slice(dir.length))).toEqual([
      '/advisories.jsonl#6',
      '/advisories.jsonl#5',
    ]);
  });

  it('a changed advisory file is a new index, never a stale one', async () => {
    const cache = { dir: cacheDir, codeVersion: 'test' };
    await loadAdvisories([file], { packages, cache });
    appendFileSync(file, lines([record('GHSA-bbbb-0000-0002', 'npm', 'left-pad')]));
    const after = await loadAdvisories([file], { packages, cache });
    expect(after.advisories.map((a) => a.id)).toContain('GHSA-bbbb-0000-0002');
    expect(indexes()).toHaveLength(2);
  });

  it('another code version does not read the index', async () => {
    await loadAdvisories([file], { packages, cache: { dir: cacheDir, codeVersion: 'one' } });
    expect(readCachedRecords(cacheDir, cacheKey([identify(file)], 'two'), packages)).toBeNull();
  });

  it('a damaged index is ignored and rewritten', async () => {
    const cache = { dir: cacheDir, codeVersion: 'test' };
    const uncached = await loadAdvisories([file], { packages });
    await loadAdvisories([file], { packages, cache });
    const [name] = indexes();
    const damaged = [
      'garbage',
      'DWOSV1 999999999\n{}',
      'DWOSV1 20\n{"format":1,"always":[0,1,99999999],"sections":{}}',
    ];
    for (const text of damaged) {
      writeFileSync(join(cacheDir, name!), text);
      expect(await loadAdvisories([file], { packages, cache })).toEqual(uncached);
    }
    const key = cacheKey([identify(file)], 'test');
    expect(readCachedRecords(cacheDir, key, packages)).not.toBeNull();
  });

  it('keeps at most four indexes', async () => {
    for (let i = 0; i < 6; i++) {
      await loadAdvisories([file], { packages, cache: { dir: cacheDir, codeVersion: `v${i}` } });
    }
    expect(indexes()).toHaveLength(4);
  });

  it('writes no index when a path cannot be read', async () => {
    const cache = { dir: cacheDir, codeVersion: 'test' };
    const loaded = await loadAdvisories([file, join(dir, 'missing.jsonl')], { packages, cache });
    expect(loaded.errors).toHaveLength(1);
    expect(readdirSync(dir)).not.toContain('cache');
  });
});

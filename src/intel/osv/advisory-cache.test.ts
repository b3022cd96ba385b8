import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cacheKey,
  identify,
  loadScoreTable,
  readCachedRecords,
  saveScoreTable,
} from './advisory-cache';
import { loadAdvisories } from './load';
import { rememberedScores, rememberScores, scoreVector } from './severity';

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
      // A header of the right identity whose summary is not of the right shape.
      (() => {
        const header = JSON.stringify({
          format: 1,
          identity: cacheKey([identify(file)], 'test').identity,
          records: 1,
          files: 1,
          rejected: 'not a list',
          always: [],
          sections: {},
        });
        return `DWOSV1 ${Buffer.byteLength(header)}\n${header}`;
      })(),
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

describe('CVSS score table', () => {
  const vector = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-scores-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('saves the scores computed so far and reads them back', () => {
    expect(scoreVector(vector)).toEqual({ version: '3.1', score: 9.8 });
    const before = loadScoreTable(dir, 'test');
    saveScoreTable(dir, 'test', before - 1);
    const [table] = readdirSync(dir).filter((n) => n.startsWith('cvss-'));
    expect(table).toBeDefined();
    const saved = JSON.parse(readFileSync(join(dir, table!), 'utf8'));
    expect(saved[vector]).toEqual(['3.1', 9.8]);
    expect(rememberedScores()[vector]).toEqual(['3.1', 9.8]);
  });

  it('writes nothing when no new score was computed, and survives a damaged table', () => {
    const known = loadScoreTable(dir, 'test');
    saveScoreTable(dir, 'test', known);
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(join(dir, `cvss-${cacheKey([], 'test').name}.json`), '{not json');
    expect(loadScoreTable(dir, 'test')).toBe(known);
  });

  it('takes back only entries of the right shape, and uses what it took', () => {
    const crafted = 'CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N';
    expect(
      rememberScores({
        [crafted]: ['3.1', 1.6],
        'CVSS:3.1/bad-version': ['9.9', 5],
        'CVSS:3.1/bad-score': ['3.1', 11],
        'CVSS:3.1/bad-shape': 'high',
        'CVSS:3.1/malformed': null,
      }),
    ).toBe(2);
    expect(scoreVector(crafted)).toEqual({ version: '3.1', score: 1.6 });
    expect(scoreVector('CVSS:3.1/malformed')).toBeNull();
    expect(rememberScores(['not', 'an', 'object'])).toBe(0);
  });
});

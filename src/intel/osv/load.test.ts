import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../../test/support/shared-data';
import { extractPath } from '../../ecosystems/extract-tree';
import { auditExtraction, prepareAdvisories } from './audit';
import { loadAdvisories } from './load';

const record = (id: string, ecosystem: string, name: string, aliases: string[], extra = {}) => ({
  id,
  modified: '2024-01-01T00:00:00Z',
  aliases,
  affected: [
    {
      package: { ecosystem, name },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }],
    },
  ],
  ...extra,
});

describe('loadAdvisories with a package filter', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-load-'));
    const lines = [
      record('GHSA-aaaa-0000-0001', 'npm', 'left-pad', ['CVE-2024-1000']),
      // Names another package, but is the same flaw (through the CVE): its id and its critical
      // severity belong to the group, so it must be parsed too.
      record('GO-2024-0001', 'Go', 'example.com/other', ['CVE-2024-1000', 'CVE-2023-0001'], {
        database_specific: { severity: 'CRITICAL' },
      }),
      record('PYSEC-2024-1', 'PyPI', 'unrelated', []),
      '{"id": "broken", "modified": "never"}',
      'not json',
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
    writeFileSync(join(dir, 'all.jsonl'), `${lines.join('\n')}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parses the wanted flaws whole (alias groups kept), skips the rest, still reports bad records', async () => {
    const filtered = await loadAdvisories([dir], { packages: new Set(['npm\u0000left-pad']) });
    expect(filtered.records).toBe(4); // JSON values; the line that is no JSON is rejected before
    expect(filtered.advisories.map((a) => a.id).sort()).toEqual([
      'GHSA-aaaa-0000-0001',
      'GO-2024-0001',
    ]);
    expect(filtered.rejected.map((r) => r.source.slice(dir.length))).toEqual([
      '/all.jsonl#5',
      '/all.jsonl#4',
    ]);
    const [group] = prepareAdvisories(filtered.advisories).vulnerabilities;
    const full = prepareAdvisories((await loadAdvisories([dir])).advisories).vulnerabilities;
    expect(group).toEqual(full.find((v) => v.id === group!.id));
    expect(group).toMatchObject({ id: 'CVE-2023-0001', severity: { rating: 'critical' } });
  });
});

describe('OSV zip exports', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dw-zip-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads .json entries, skips other entries, rejects an entry above 16 MiB unread', async () => {
    const good = JSON.stringify(record('GHSA-zip0-0000-0001', 'npm', 'a', []));
    const huge = `{"id":"GHSA-huge-0000-0001","modified":"2024-01-01T00:00:00Z","details":"${' '.repeat(17 * 1024 * 1024)}"}`;
    const path = join(dir, 'all.zip');
    writeFileSync(
      path,
      zipSync({
        'GHSA-zip0-0000-0001.json': strToU8(good),
        'README.txt': strToU8('not an advisory'),
        'GHSA-huge-0000-0001.json': strToU8(huge),
      }),
    );
    const loaded = await loadAdvisories([path]);
    expect(loaded.advisories.map((a) => a.id)).toEqual(['GHSA-zip0-0000-0001']);
    expect(loaded.rejected).toEqual([
      {
        source: `${path}!GHSA-huge-0000-0001.json`,
        id: null,
        reasons: ['zip entry larger than 16 MiB'],
      },
    ]);
    expect(loaded.errors).toEqual([]);
  });

  it('reports a corrupt zip as an error, without throwing', async () => {
    const path = join(dir, 'broken.zip');
    writeFileSync(path, Buffer.from('PK\u0003\u0004 definitely not a zip'));
    const loaded = await loadAdvisories([path]);
    expect(loaded.advisories).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]!.message).toMatch(/^not a readable zip/);
  });
});

describe.skipIf(!sharedDataDir)(
  `filtered vs full load on the shared corpus${sharedDataDir ? '' : ` (skipped: ${SHARED_DATA_MISSING})`}`,
  () => {
    it.each([
      'generated/old-vulnerable/package-lock.json',
      'lockfiles/storage/package-lock.json',
      'lockfiles/prometheus',
      'lockfiles/poetry',
      'lockfiles/BookStack',
    ])(
      '%s: identical findings with and without the filter',
      async (target) => {
        const osvDir = join(sharedDataDir!, 'osv');
        const files = readdirSync(osvDir)
          .filter((f) => f.endsWith('.jsonl'))
          .map((f) => join(osvDir, f));
        const tree = await extractPath(join(sharedDataDir!, target));
        const packages = new Set(
          tree.files.flatMap((f) => f.dependencies.map((d) => `${f.ecosystem}\u0000${d.name}`)),
        );
        const full = auditExtraction(
          tree,
          prepareAdvisories((await loadAdvisories(files)).advisories),
        );
        const filteredLoad = await loadAdvisories(files, { packages });
        const filtered = auditExtraction(tree, prepareAdvisories(filteredLoad.advisories));
        expect(filtered.findings).toEqual(full.findings);
        expect(filteredLoad.advisories.length).toBeLessThan(filteredLoad.records);
        // The same through the advisory index: written on the first run, read on the second.
        const cacheDir = mkdtempSync(join(tmpdir(), 'dw-load-cache-'));
        try {
          const cache = { dir: cacheDir, codeVersion: 'test' };
          for (let run = 0; run < 2; run++) {
            const cachedLoad = await loadAdvisories(files, { packages, cache });
            expect(cachedLoad).toEqual(filteredLoad);
          }
          expect(readdirSync(cacheDir)).toHaveLength(1);
        } finally {
          rmSync(cacheDir, { recursive: true, force: true });
        }
      },
      120_000,
    );
  },
);

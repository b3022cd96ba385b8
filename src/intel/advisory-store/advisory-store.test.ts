import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonl, npmRange, osvRecord } from '../../../test/support/scenarios';
import { SHARED_DATA_MISSING, sharedDataDir, sharedPath } from '../../../test/support/shared-data';
import { openTestDatabase } from '../../../test/support/test-app';
import type { Database } from '../../db/connection';
import { requestRematch } from '../../domains/exposures/matching/rematch-request';
import { importPath, importRecords } from './import';
import {
  emptyReadResult,
  type ReadResult,
  readRecordsFromBytes,
  readRecordsFromPath,
  ZIP_LIMITS,
  zipRecordBatches,
} from './read';

function readText(text: string, source = 'test.jsonl'): ReadResult {
  const out: ReadResult = emptyReadResult();
  readRecordsFromBytes(strToU8(text), source, out);
  return out;
}

async function counts(database: Database) {
  const { rows } = await database.pool.query<{ a: number; v: number; al: number; af: number }>(
    `SELECT (SELECT count(*) FROM osv_advisories)::int AS a,
            (SELECT count(*) FROM vulnerabilities WHERE merged_into IS NULL)::int AS v,
            (SELECT count(*) FROM osv_advisory_aliases)::int AS al,
            (SELECT count(*) FROM osv_affected)::int AS af`,
  );
  return rows[0];
}

async function vulnerabilityOf(database: Database, advisoryId: string) {
  const { rows } = await database.pool.query(
    `SELECT v.* FROM vulnerabilities v JOIN osv_advisories a ON a.vulnerability_id = v.id
     WHERE a.id = $1`,
    [advisoryId],
  );
  return rows[0];
}

describe('advisory store import', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('is idempotent: the same records again change nothing', async () => {
    const text = jsonl([
      osvRecord({ id: 'GHSA-idem-0001-aaaa', affected: [npmRange('idem-a', '0', '1.2.0')] }),
      osvRecord({ id: 'GHSA-idem-0002-bbbb', affected: [npmRange('idem-b', '2.0.0', '2.0.5')] }),
    ]);
    const first = await importRecords(database, readText(text), requestRematch);
    expect(first).toMatchObject({ added: 2, updated: 0, unchanged: 0, rejected: 0 });
    const before = await counts(database);
    const stamps = await database.pool.query(
      `SELECT id, updated_at FROM osv_advisories WHERE id LIKE 'GHSA-idem-%' ORDER BY id`,
    );
    const again = await importRecords(database, readText(text), requestRematch);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 2, changedPackages: 0 });
    expect(await counts(database)).toEqual(before);
    const after = await database.pool.query(
      `SELECT id, updated_at FROM osv_advisories WHERE id LIKE 'GHSA-idem-%' ORDER BY id`,
    );
    expect(after.rows).toEqual(stamps.rows);
  });

  it('replaces a record only when its modified is newer', async () => {
    const v1 = osvRecord({
      id: 'GHSA-modi-0001-aaaa',
      modified: '2024-02-01T00:00:00Z',
      summary: 'first wording',
      affected: [npmRange('modi-a', '0', '1.0.0')],
    });
    await importRecords(database, readText(jsonl([v1])), requestRematch);
    const newer = {
      ...osvRecord({
        id: 'GHSA-modi-0001-aaaa',
        modified: '2024-03-01T00:00:00Z',
        summary: 'second wording',
        affected: [npmRange('modi-a', '0', '1.5.0'), npmRange('modi-b', '0', '3.0.0')],
      }),
    };
    const replaced = await importRecords(database, readText(jsonl([newer])), requestRematch);
    expect(replaced).toMatchObject({ updated: 1, changedPackages: 2 });
    const older = osvRecord({
      id: 'GHSA-modi-0001-aaaa',
      modified: '2024-01-15T00:00:00Z',
      summary: 'stale wording',
    });
    const ignored = await importRecords(database, readText(jsonl([older])), requestRematch);
    expect(ignored).toMatchObject({ updated: 0, unchanged: 1 });
    const { rows } = await database.pool.query(
      `SELECT summary, modified_at FROM osv_advisories WHERE id = 'GHSA-modi-0001-aaaa'`,
    );
    expect(rows[0].summary).toBe('second wording');
    const affected = await database.pool.query(
      `SELECT name, fixed_versions FROM osv_affected WHERE advisory_id = 'GHSA-modi-0001-aaaa' ORDER BY ordinal`,
    );
    expect(affected.rows).toEqual([
      { name: 'modi-a', fixed_versions: ['1.5.0'] },
      { name: 'modi-b', fixed_versions: ['3.0.0'] },
    ]);
    expect((await vulnerabilityOf(database, 'GHSA-modi-0001-aaaa')).summary).toBe('second wording');
  });

  it('joins CVE, GHSA and PYSEC records of one flaw into one vulnerability', async () => {
    const records = [
      osvRecord({
        id: 'PYSEC-2024-901',
        aliases: ['CVE-2024-90001'],
        affected: [
          {
            ecosystem: 'PyPI',
            name: 'Join_Pkg',
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0' }] }],
          },
        ],
      }),
      osvRecord({
        id: 'GHSA-join-0001-aaaa',
        aliases: ['CVE-2024-90001'],
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [
          {
            ecosystem: 'PyPI',
            name: 'join-pkg',
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0' }] }],
          },
        ],
      }),
      osvRecord({ id: 'CVE-2024-90001', aliases: [], summary: 'NVD text' }),
    ];
    await importRecords(database, readText(jsonl(records)), requestRematch);
    const ids = new Set(
      await Promise.all(
        records.map(async (r) => (await vulnerabilityOf(database, r.id as string)).id),
      ),
    );
    expect(ids.size).toBe(1);
    const vulnerability = await vulnerabilityOf(database, 'GHSA-join-0001-aaaa');
    expect(vulnerability.canonical_id).toBe('CVE-2024-90001');
    expect(vulnerability.aliases).toEqual(['GHSA-join-0001-aaaa', 'PYSEC-2024-901']);
    expect(vulnerability.severity_rating).toBe('critical');
    expect(vulnerability.ecosystems).toEqual(['PyPI']);
    // PEP 503: the store keys affected entries by the normalised name.
    const names = await database.pool.query(
      `SELECT DISTINCT name FROM osv_affected WHERE advisory_id IN ('PYSEC-2024-901', 'GHSA-join-0001-aaaa')`,
    );
    expect(names.rows).toEqual([{ name: 'join-pkg' }]);
  });

  it('merges two groups bridged by a later record and splits a group whose alias is dropped', async () => {
    await importRecords(
      database,
      readText(
        jsonl([
          osvRecord({ id: 'GHSA-merg-0001-aaaa', aliases: ['CVE-2024-91001'] }),
          osvRecord({ id: 'RUSTSEC-2024-9101', aliases: ['CVE-2024-91002'] }),
        ]),
      ),
      requestRematch,
    );
    const a = (await vulnerabilityOf(database, 'GHSA-merg-0001-aaaa')).id;
    const b = (await vulnerabilityOf(database, 'RUSTSEC-2024-9101')).id;
    expect(a).not.toBe(b);
    await importRecords(
      database,
      readText(
        jsonl([osvRecord({ id: 'OSV-2024-9102', aliases: ['CVE-2024-91001', 'CVE-2024-91002'] })]),
      ),
      requestRematch,
    );
    const joined = await vulnerabilityOf(database, 'RUSTSEC-2024-9101');
    expect((await vulnerabilityOf(database, 'GHSA-merg-0001-aaaa')).id).toBe(joined.id);
    const gone = [a, b].find((id) => id !== joined.id);
    const { rows } = await database.pool.query(
      'SELECT merged_into FROM vulnerabilities WHERE id = $1',
      [gone],
    );
    expect(rows[0].merged_into).toBe(joined.id);

    // The bridge drops one alias: the RUSTSEC side leaves the group again.
    await importRecords(
      database,
      readText(
        jsonl([
          osvRecord({
            id: 'OSV-2024-9102',
            modified: '2024-06-01T00:00:00Z',
            aliases: ['CVE-2024-91001'],
          }),
        ]),
      ),
      requestRematch,
    );
    const left = await vulnerabilityOf(database, 'RUSTSEC-2024-9101');
    const stayed = await vulnerabilityOf(database, 'GHSA-merg-0001-aaaa');
    expect(left.id).not.toBe(stayed.id);
    expect((await vulnerabilityOf(database, 'OSV-2024-9102')).id).toBe(stayed.id);
    expect(left.merged_into).toBeNull();
    expect(stayed.merged_into).toBeNull();
  });

  it('reads files, directories and zip archives; rejects bad records without stopping', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-osv-'));
    try {
      writeFileSync(
        join(dir, 'one.json'),
        JSON.stringify(osvRecord({ id: 'GO-2024-9201', affected: [] })),
      );
      writeFileSync(
        join(dir, 'many.jsonl'),
        `${JSON.stringify(osvRecord({ id: 'GO-2024-9202' }))}\n{not json\n${JSON.stringify({ id: 'X' })}\n`,
      );
      writeFileSync(
        join(dir, 'export.zip'),
        zipSync({
          'GO-2024-9203.json': strToU8(JSON.stringify(osvRecord({ id: 'GO-2024-9203' }))),
          'README.txt': strToU8('not an advisory'),
        }),
      );
      writeFileSync(join(dir, 'notes.txt'), 'ignored');
      const read = await readRecordsFromPath(dir);
      expect(read.records.map((r) => r.advisory.id).sort()).toEqual([
        'GO-2024-9201',
        'GO-2024-9202',
        'GO-2024-9203',
      ]);
      expect(read.rejected.map((r) => r.source)).toEqual(['many.jsonl#2', 'many.jsonl#3']);
      expect(read.records.find((r) => r.advisory.id === 'GO-2024-9203')?.source).toBe(
        'export.zip!GO-2024-9203.json',
      );
      const broken = readText('PK\u0003\u0004garbage', 'broken.zip');
      expect(broken.rejected[0]?.reasons[0]).toMatch(/zip/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('zip exports', () => {
  it('streams entries in batches and refuses oversized entries before inflating them', () => {
    const entries: Record<string, Uint8Array> = {};
    for (let i = 0; i < 1200; i++) {
      entries[`GO-2024-${9300 + i}.json`] = strToU8(
        JSON.stringify(osvRecord({ id: `GO-2024-${9300 + i}` })),
      );
    }
    entries['big.json'] = strToU8(' '.repeat(ZIP_LIMITS.entryBytes + 1));
    const batches = [...zipRecordBatches(zipSync(entries), 'all.zip', 500)];
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(batches.reduce((n, b) => n + b.records.length, 0)).toBe(1200);
    const rejected = batches.flatMap((b) => b.rejected);
    expect(rejected).toEqual([
      { source: 'all.zip!big.json', id: null, reasons: ['zip entry over the size or count limit'] },
    ]);
  });

  it('imports a directory file by file, zips entry by entry', async () => {
    const database = await openTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'dw-osv-dir-'));
    try {
      writeFileSync(join(dir, 'a.jsonl'), jsonl([osvRecord({ id: 'GO-2024-9401' })]));
      writeFileSync(
        join(dir, 'b.zip'),
        zipSync({
          'GO-2024-9402.json': strToU8(JSON.stringify(osvRecord({ id: 'GO-2024-9402' }))),
        }),
      );
      expect(await importPath(database, dir, requestRematch)).toMatchObject({
        read: 2,
        added: 2,
        rejected: 0,
      });
      expect(await importPath(database, dir, requestRematch)).toMatchObject({
        read: 2,
        added: 0,
        unchanged: 2,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.close();
    }
  });
});

describe.skipIf(!sharedDataDir)(
  `advisory store on the shared OSV corpus${sharedDataDir ? '' : ` (${SHARED_DATA_MISSING})`}`,
  () => {
    let database: Database;
    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(() => database.close());

    it('imports npm GHSA and PyPI records, joins their aliases, and a second import changes nothing', async () => {
      const npm = await readRecordsFromPath(sharedPath('osv', 'npm.ghsa.jsonl'));
      const retire = await readRecordsFromPath(sharedPath('osv', 'npm.retirejs.derived.jsonl'));
      const read: ReadResult = {
        records: [...npm.records, ...retire.records],
        rejected: [...npm.rejected, ...retire.rejected],
        notAdvisories: [],
      };
      const first = await importRecords(database, read, requestRematch);
      expect(first.added).toBe(new Set(read.records.map((r) => r.advisory.id)).size);
      const { rows } = await database.pool.query<{ n: number; groups: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT vulnerability_id)::int AS groups FROM osv_advisories`,
      );
      // RetireJS records carry the GHSA and CVE ids of the same flaws: fewer groups than records.
      expect(rows[0]?.groups).toBeLessThan(rows[0]?.n ?? 0);
      const withdrawn = await database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM osv_advisories WHERE withdrawn_at IS NOT NULL`,
      );
      expect(withdrawn.rows[0]?.n).toBe(2);
      const again = await importRecords(database, read, requestRematch);
      expect(again).toMatchObject({ added: 0, updated: 0, changedPackages: 0 });
    }, 240_000);
  },
);

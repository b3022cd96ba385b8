import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmRange, osvRecord } from '../../../test/support/scenarios';
import { openTestDatabase } from '../../../test/support/test-app';
import type { Database } from '../../db/connection';
import { requestRematch } from '../../domains/exposures/matching/rematch-request';
import { loadAdvisories } from '../osv/load';
import { notAnOsvRecord, splitOsvText } from '../osv/parse';
import { importPath } from './import';

/** Files a user's advisory folder also holds: none is an OSV record. */
const JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://example.test/osv.schema.json',
  title: 'Open Source Vulnerability',
  type: 'object',
  required: ['id', 'modified'],
  properties: { id: { type: 'string' }, modified: { type: 'string' } },
};
const PACKAGE_JSON = { name: 'advisories', version: '1.0.0', description: 'x', private: true };
const MANIFEST = { generated: '2026-11-01T00:00:00Z', files: ['good.json', 'bad.json'] };
const FILE_LIST = ['good.json', 'bad.json'];

/** An OSV record with a bad `modified` and `affected`: malformed, so rejected with reasons. */
const MALFORMED = { id: 'GHSA-bad0-0000-0001', modified: 'yesterday', affected: 'everything' };

const good = (id: string) => osvRecord({ id, affected: [npmRange('skip-me-not', '0', '1.0.0')] });

describe('documents that are no OSV record', () => {
  it('are told apart from malformed records', () => {
    expect(notAnOsvRecord(good('GHSA-good-0000-0001'))).toBeNull();
    expect(notAnOsvRecord(MALFORMED)).toBeNull();
    expect(notAnOsvRecord({ modified: '2024-01-01T00:00:00Z', affected: [] })).toBeNull();
    expect(notAnOsvRecord(JSON_SCHEMA)).toMatch(/\$schema/);
    expect(notAnOsvRecord(PACKAGE_JSON)).toMatch(/too few OSV fields/);
    expect(notAnOsvRecord(MANIFEST)).toMatch(/too few OSV fields/);
    expect(notAnOsvRecord({ id: 'settings' })).toMatch(/too few OSV fields/);
    expect(notAnOsvRecord('text')).toMatch(/not a JSON object/);
  });

  it('are skipped whole by the splitter; records inside {vulns} or arrays are kept', () => {
    const skipped = (value: unknown) =>
      splitOsvText(JSON.stringify(value, null, 2), 'f.json').notAdvisories;
    expect(skipped(JSON_SCHEMA)).toEqual([
      { source: 'f.json', reason: 'not an OSV record: declares a $schema' },
    ]);
    expect(skipped(FILE_LIST)).toHaveLength(1);
    expect(skipped(PACKAGE_JSON)).toHaveLength(1);

    const one = splitOsvText(JSON.stringify({ vulns: [good('GHSA-good-0000-0002')] }), 'v.json');
    expect(one).toMatchObject({ notAdvisories: [], rejected: [], records: [{ source: 'v.json' }] });
    // An array with one record: every element is a record (the odd one is rejected, not skipped).
    const mixed = splitOsvText(JSON.stringify([good('GHSA-good-0000-0003'), PACKAGE_JSON]), 'a');
    expect(mixed.records).toHaveLength(2);
    expect(mixed.notAdvisories).toEqual([]);
  });
});

describe('importing a folder with files that are no advisories', () => {
  let database: Database;
  let dir: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'driftwatch-not-advisories-'));
    const write = (name: string, value: unknown) =>
      writeFileSync(join(dir, name), JSON.stringify(value, null, 2));
    write('osv.schema.json', JSON_SCHEMA);
    write('package.json', PACKAGE_JSON);
    write('manifest.json', MANIFEST);
    write('files.json', FILE_LIST);
    write('good.json', good('GHSA-good-0000-0004'));
    write('bad.json', MALFORMED);
    const zip = zipSync({
      'package.json': strToU8(JSON.stringify(PACKAGE_JSON)),
      'GHSA-good-0000-0005.json': strToU8(JSON.stringify(good('GHSA-good-0000-0005'))),
    });
    writeFileSync(join(dir, 'export.zip'), zip);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts them as not advisories and still rejects the malformed record with its reasons', async () => {
    const summary = await importPath(database, dir, requestRematch);
    expect(summary).toMatchObject({ read: 3, added: 2, rejected: 1, notAdvisories: 5 });
    expect(summary.rejections).toEqual([
      { source: 'bad.json', id: 'GHSA-bad0-0000-0001', reasons: expect.any(Array) },
    ]);
    expect(summary.rejections[0]?.reasons.join(' ')).toMatch(/modified|affected/);
    expect(summary.notAdvisoryDocuments.map((d) => d.source).sort()).toEqual([
      'export.zip!package.json',
      'files.json',
      'manifest.json',
      'osv.schema.json',
      'package.json',
    ]);
  });

  it('the offline audit loader skips them too instead of reporting them as rejected', async () => {
    const loaded = await loadAdvisories([dir]);
    expect(loaded.advisories.map((a) => a.id).sort()).toEqual([
      'GHSA-good-0000-0004',
      'GHSA-good-0000-0005',
    ]);
    expect(loaded.rejected.map((r) => r.source)).toEqual([expect.stringMatching(/bad\.json$/)]);
  });
});

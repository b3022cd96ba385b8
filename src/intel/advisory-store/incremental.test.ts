import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
} from '../../../test/support/scenarios';
import { requestRematch } from '../../domains/exposures/matching/rematch-request';
import { modifiedIndexUrl, parseModifiedIndex, recordUrl } from './incremental';
import { syncOsvFeeds } from './sync';

/**
 * A local OSV export bucket as osv.dev lays it out: `/npm/all.zip`, `/npm/modified_id.csv`
 * (`<modified>,<id>`, newest first, with an ETag) and `/npm/<id>.json`.
 */
interface Bucket {
  server: Server;
  base: string;
  files: Map<string, { body: Uint8Array; etag: string }>;
  requests: string[];
  failing: Set<string>;
}

async function startBucket(): Promise<Bucket> {
  const bucket: Bucket = {
    server: createServer(),
    base: '',
    files: new Map(),
    requests: [],
    failing: new Set(),
  };
  bucket.server.on('request', (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    bucket.requests.push(path);
    const file = bucket.files.get(path);
    if (bucket.failing.has(path)) res.writeHead(503).end('busy');
    else if (!file) res.writeHead(404).end();
    else if (req.headers['if-none-match'] === file.etag) res.writeHead(304).end();
    else res.writeHead(200, { etag: file.etag }).end(Buffer.from(file.body));
  });
  await new Promise<void>((resolve) => bucket.server.listen(0, '127.0.0.1', resolve));
  bucket.base = `http://127.0.0.1:${(bucket.server.address() as AddressInfo).port}`;
  return bucket;
}

let version = 0;
/** Publishes `records` as the export: the zip, the index and one file per record. */
function publish(bucket: Bucket, records: Record<string, unknown>[], options = { index: true }) {
  version++;
  const entries: Record<string, Uint8Array> = {};
  for (const record of records) {
    const body = strToU8(JSON.stringify(record));
    entries[`${record.id}.json`] = body;
    bucket.files.set(`/npm/${record.id}.json`, { body, etag: `"r${version}"` });
  }
  bucket.files.set('/npm/all.zip', { body: zipSync(entries), etag: `"z${version}"` });
  if (!options.index) return;
  const lines = records
    .map((r) => `${r.modified},${r.id}`)
    .sort()
    .reverse();
  bucket.files.set('/npm/modified_id.csv', {
    body: strToU8(`${lines.join('\n')}\n`),
    etag: `"i${version}"`,
  });
}

const record = (id: string, modified: string, fixed = '1.1.0') =>
  osvRecord({ id, modified, affected: [npmRange(`${id.toLowerCase()}-pkg`, '0', fixed)] });

describe('incremental OSV sync (modified_id.csv)', () => {
  let t: TestApp;
  let bucket: Bucket;
  beforeAll(async () => {
    bucket = await startBucket();
    t = await createTestApp({
      osv: { feedUrl: bucket.base, syncEcosystems: ['npm'], syncSchedule: '23 * * * *' },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => bucket.server.close(resolve));
  });
  const sync = () => syncOsvFeeds(t.database, t.config.osv, requestRematch);
  const stored = async () =>
    (
      await t.database.pool.query<{ id: string; modified_at: Date }>(
        'SELECT id, modified_at FROM osv_advisories ORDER BY id',
      )
    ).rows.map((r) => `${r.id}@${r.modified_at.toISOString().slice(0, 10)}`);

  it('reads the index the way osv.dev writes it', () => {
    const index = parseModifiedIndex(
      '2025-03-01T10:00:00Z,GHSA-aaaa-bbbb-cccc\r\nnot a line\n\n2024-01-02T00:00:00.123Z,npm/MAL-2024-1\n',
    );
    expect(index.entries).toEqual([
      { id: 'GHSA-aaaa-bbbb-cccc', modified: Date.parse('2025-03-01T10:00:00Z') },
      { id: 'MAL-2024-1', modified: Date.parse('2024-01-02T00:00:00.123Z') },
    ]);
    expect(index.skipped).toBe(1);
    expect(modifiedIndexUrl('https://b.test/crates.io/all.zip')).toBe(
      'https://b.test/crates.io/modified_id.csv',
    );
    expect(modifiedIndexUrl('https://b.test/{ecosystem}.zip')).toBeNull();
    expect(recordUrl('https://b.test/npm/modified_id.csv', 'GHSA-x')).toBe(
      'https://b.test/npm/GHSA-x.json',
    );
  });

  it('imports the zip once, then fetches and stores only what the index lists as changed', async () => {
    const tenant = await t.createTenant();
    const repo = await insertRepository(t, tenant.tenantId, 'incremental');
    await scanWith(t, tenant.tenantId, repo, [{ name: 'ghsa-new1-pkg', version: '1.0.0' }]);
    publish(bucket, [
      record('GHSA-old1', '2025-01-01T00:00:00Z'),
      record('GHSA-old2', '2025-01-01T00:00:00Z'),
      record('GHSA-old3', '2025-01-02T00:00:00Z'),
    ]);

    // First run: nothing to compare with, the whole export.
    const first = await sync();
    expect(first.map((r) => [r.mode, r.status, r.summary?.added])).toEqual([
      ['full', 'imported', 3],
    ]);
    expect(bucket.requests).toEqual(['/npm/all.zip']);

    // Second run: the index, read for the first time, lists nothing the store lacks.
    bucket.requests.length = 0;
    const second = await sync();
    expect(second[0]).toMatchObject({
      mode: 'incremental',
      status: 'imported',
      listed: 3,
      fetched: 0,
      summary: { read: 0 },
    });
    expect(bucket.requests).toEqual(['/npm/modified_id.csv']);

    // Unchanged index: one conditional GET answered 304, nothing else.
    bucket.requests.length = 0;
    const third = await sync();
    expect(third.map((r) => [r.mode, r.status])).toEqual([['incremental', 'not_modified']]);
    expect(bucket.requests).toEqual(['/npm/modified_id.csv']);

    // One record modified, one new: only those two are downloaded (not the zip, not the others).
    publish(bucket, [
      record('GHSA-old1', '2025-01-01T00:00:00Z'),
      record('GHSA-old2', '2025-03-01T00:00:00Z', '1.2.0'),
      record('GHSA-old3', '2025-01-02T00:00:00Z'),
      record('GHSA-new1', '2025-03-02T00:00:00Z'),
    ]);
    bucket.requests.length = 0;
    const fourth = await sync();
    expect(fourth[0]).toMatchObject({
      mode: 'incremental',
      status: 'imported',
      listed: 4,
      fetched: 2,
      missing: 0,
      summary: { added: 1, updated: 1, unchanged: 0, tenantsNotified: 1 },
    });
    expect(bucket.requests.sort()).toEqual([
      '/npm/GHSA-new1.json',
      '/npm/GHSA-old2.json',
      '/npm/modified_id.csv',
    ]);
    expect(await stored()).toEqual([
      'GHSA-new1@2025-03-02',
      'GHSA-old1@2025-01-01',
      'GHSA-old2@2025-03-01',
      'GHSA-old3@2025-01-02',
    ]);
  });

  it('finishes a failed run on the next one and counts records the export no longer has', async () => {
    publish(bucket, [
      record('GHSA-old1', '2025-01-01T00:00:00Z'),
      record('GHSA-old2', '2025-03-01T00:00:00Z', '1.2.0'),
      record('GHSA-old3', '2025-01-02T00:00:00Z'),
      record('GHSA-new1', '2025-03-02T00:00:00Z'),
      record('GHSA-new2', '2025-04-01T00:00:00Z'),
      record('GHSA-gone', '2025-04-01T00:00:00Z'),
    ]);
    bucket.files.delete('/npm/GHSA-gone.json');
    bucket.failing.add('/npm/GHSA-new2.json');
    const failed = await sync();
    expect(failed[0]).toMatchObject({ mode: 'incremental', status: 'failed' });
    expect(failed[0]?.error).toMatch(/503/);
    expect(await stored()).not.toContain('GHSA-new2@2025-04-01');
    const state = await t.database.pool.query(
      "SELECT last_status, etag FROM osv_feed_state WHERE url LIKE '%modified_id.csv'",
    );
    // The index's validators are those of the last complete run: the next run reads it again.
    expect(state.rows[0]).toMatchObject({ last_status: 'failed', etag: '"i2"' });

    bucket.failing.clear();
    bucket.requests.length = 0;
    const retried = await sync();
    expect(retried[0]).toMatchObject({
      status: 'imported',
      fetched: 1,
      missing: 1,
      summary: { added: 1 },
    });
    expect(bucket.requests.sort()).toEqual([
      '/npm/GHSA-gone.json',
      '/npm/GHSA-new2.json',
      '/npm/modified_id.csv',
    ]);
    expect(await stored()).toContain('GHSA-new2@2025-04-01');
  });

  it('keeps the conditional zip for an export without an index', async () => {
    bucket.files.delete('/npm/modified_id.csv');
    publish(bucket, [record('GHSA-zip1', '2025-05-01T00:00:00Z')], { index: false });
    bucket.requests.length = 0;
    const report = await sync();
    expect(report.map((r) => [r.mode, r.status, r.summary?.added])).toEqual([
      ['full', 'imported', 1],
    ]);
    expect(bucket.requests).toEqual(['/npm/modified_id.csv', '/npm/all.zip']);
  });
});

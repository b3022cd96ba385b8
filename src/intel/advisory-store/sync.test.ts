import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
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
import { EVENT_SUBSCRIPTIONS, jobDefinitions } from '../../background-jobs';
import { OSV_SYNC } from '../../domains/exposures/jobs';
import { REMATCH, requestRematch } from '../../domains/exposures/matching/rematch-request';
import { FeedError, feedUrlFor, importFromUrl, syncOsvFeeds } from './sync';

/** A local stand-in for an OSV export bucket: `/{ecosystem}/all.zip` with ETag/Last-Modified. */
interface Feed {
  server: Server;
  base: string;
  files: Map<string, { body: Uint8Array; etag: string; lastModified: string }>;
  requests: { path: string; ifNoneMatch: string | null; ifModifiedSince: string | null }[];
  failing: Set<string>;
}

function zipOf(records: Record<string, unknown>[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const record of records) entries[`${record.id}.json`] = strToU8(JSON.stringify(record));
  return zipSync(entries);
}

async function startFeed(): Promise<Feed> {
  const feed: Feed = {
    server: createServer(),
    base: '',
    files: new Map(),
    requests: [],
    failing: new Set(),
  };
  feed.server.on('request', (req: IncomingMessage, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    feed.requests.push({
      path,
      ifNoneMatch: (req.headers['if-none-match'] as string) ?? null,
      ifModifiedSince: (req.headers['if-modified-since'] as string) ?? null,
    });
    if (feed.failing.has(path)) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
      return;
    }
    const file = feed.files.get(path);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, { etag: file.etag, 'last-modified': file.lastModified }).end();
      return;
    }
    res
      .writeHead(200, {
        'content-type': 'application/zip',
        'content-length': String(file.body.byteLength),
        etag: file.etag,
        'last-modified': file.lastModified,
      })
      .end(Buffer.from(file.body));
  });
  await new Promise<void>((resolve) => feed.server.listen(0, '127.0.0.1', resolve));
  feed.base = `http://127.0.0.1:${(feed.server.address() as AddressInfo).port}`;
  return feed;
}

function publish(feed: Feed, ecosystem: string, records: Record<string, unknown>[], date: string) {
  const body = zipOf(records);
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  feed.files.set(`/${ecosystem}/all.zip`, {
    body,
    etag,
    lastModified: new Date(date).toUTCString(),
  });
}

describe('OSV feed sync', () => {
  let t: TestApp;
  let feed: Feed;
  beforeAll(async () => {
    feed = await startFeed();
    t = await createTestApp({
      osv: {
        feedUrl: feed.base,
        syncEcosystems: ['npm', 'PyPI', 'Go'],
        syncSchedule: '23 * * * *',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => feed.server.close(resolve));
  });

  it('builds export URLs from the base or a {ecosystem} template', () => {
    expect(feedUrlFor('https://feeds.example.test/osv/', 'crates.io')).toBe(
      'https://feeds.example.test/osv/crates.io/all.zip',
    );
    expect(feedUrlFor('https://feeds.example.test/{ecosystem}.zip', 'PyPI')).toBe(
      'https://feeds.example.test/PyPI.zip',
    );
  });

  it('imports changed exports, sends validators, skips unchanged ones and survives a failing feed', async () => {
    const tenant = await t.createTenant();
    const repo = await insertRepository(t, tenant.tenantId, 'synced');
    await scanWith(t, tenant.tenantId, repo, [{ name: 'feed-pkg', version: '1.0.0' }]);

    publish(
      feed,
      'npm',
      [osvRecord({ id: 'GHSA-feed-0001-aaaa', affected: [npmRange('feed-pkg', '0', '1.1.0')] })],
      '2025-01-01T00:00:00Z',
    );
    publish(
      feed,
      'PyPI',
      [
        osvRecord({
          id: 'PYSEC-2025-501',
          affected: [
            {
              ecosystem: 'PyPI',
              name: 'feed-py',
              ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0' }] }],
            },
          ],
        }),
      ],
      '2025-01-01T00:00:00Z',
    );
    feed.failing.add('/Go/all.zip');

    // Through the scheduled job's handler, as the worker runs it.
    const job = jobDefinitions(t.jobDeps).find((d) => d.name === OSV_SYNC.name);
    expect(job?.schedule).toBe('23 * * * *');
    await job?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    const state = await t.database.pool.query(
      'SELECT url, etag, last_status, records, last_error FROM osv_feed_state ORDER BY url',
    );
    expect(state.rows.map((r) => [r.url.replace(feed.base, ''), r.last_status, r.records])).toEqual(
      [
        ['/Go/all.zip', 'failed', 0],
        ['/PyPI/all.zip', 'imported', 1],
        ['/npm/all.zip', 'imported', 1],
      ],
    );
    expect(state.rows[0].last_error).toMatch(/503/);
    // The re-match refreshed and opened exposures: every subscriber of both events ran after it.
    expect((await t.runJobs()).sort()).toEqual(
      [
        REMATCH.name,
        ...(EVENT_SUBSCRIPTIONS['exposures.refreshed'] ?? []),
        ...(EVENT_SUBSCRIPTIONS['exposures.opened'] ?? []),
      ].sort(),
    );
    const exposures = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/vulnerability-exposures',
    });
    expect(exposures.json().items.map((e: { packageName: string }) => e.packageName)).toEqual([
      'feed-pkg',
    ]);

    // Second run: the server answers 304 to the validators, nothing is imported.
    feed.requests.length = 0;
    const second = await syncOsvFeeds(t.database, t.config.osv, requestRematch);
    expect(second.map((r) => [r.ecosystem, r.status])).toEqual([
      ['npm', 'not_modified'],
      ['PyPI', 'not_modified'],
      ['Go', 'failed'],
    ]);
    const npmRequest = feed.requests.find((r) => r.path === '/npm/all.zip');
    expect(npmRequest?.ifNoneMatch).toBe(feed.files.get('/npm/all.zip')?.etag);
    expect(npmRequest?.ifModifiedSince).toBe('Wed, 01 Jan 2025 00:00:00 GMT');

    // A new export version (withdrawal) is imported and closes the exposure.
    publish(
      feed,
      'npm',
      [
        osvRecord({
          id: 'GHSA-feed-0001-aaaa',
          modified: '2025-02-01T00:00:00Z',
          withdrawn: '2025-02-01T00:00:00Z',
          affected: [npmRange('feed-pkg', '0', '1.1.0')],
        }),
      ],
      '2025-02-01T00:00:00Z',
    );
    feed.failing.clear();
    publish(feed, 'Go', [], '2025-02-01T00:00:00Z');
    const third = await syncOsvFeeds(t.database, t.config.osv, requestRematch);
    expect(third.map((r) => [r.ecosystem, r.status, r.summary?.updated ?? null])).toEqual([
      ['npm', 'imported', 1],
      ['PyPI', 'not_modified', null],
      ['Go', 'imported', 0],
    ]);
    await t.runJobs();
    const after = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/vulnerability-exposures',
    });
    expect(after.json().items[0]).toMatchObject({
      status: 'fixed',
      fixedReason: 'advisory_withdrawn',
    });
  });

  it('imports from a URL once (the CLI path) and reports an unreachable or failing URL', async () => {
    publish(
      feed,
      'once',
      [osvRecord({ id: 'GHSA-once-0001-aaaa', affected: [npmRange('once-pkg', '0', '1.0.0')] })],
      '2025-01-01T00:00:00Z',
    );
    const summary = await importFromUrl(t.database, `${feed.base}/once/all.zip`, requestRematch);
    expect(summary).toMatchObject({ read: 1, added: 1 });
    await expect(
      importFromUrl(t.database, `${feed.base}/missing/all.zip`, requestRematch),
    ).rejects.toThrow(FeedError);
    await expect(
      importFromUrl(t.database, 'http://127.0.0.1:9/all.zip', requestRematch),
    ).rejects.toThrow(/could not reach/);
  });

  it('does nothing when no feed is configured', async () => {
    expect(
      await syncOsvFeeds(
        t.database,
        {
          feedUrl: null,
          syncEcosystems: ['npm'],
        },
        requestRematch,
      ),
    ).toEqual([]);
  });
});

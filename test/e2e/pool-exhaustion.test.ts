import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createTenantWithOwner } from '../../src/domains/tenants/service';
import { type RunningService, startService } from '../../src/service';
import { createScratchDatabase, randomMasterKey } from '../support/service-process';

/**
 * Pool sizing (docs/operations.md): a request that finds every connection busy gets a fast 503
 * problem with Retry-After, not a 500 after a long wait; on PostgreSQL the job workers have a
 * pool of their own, so exhausting it leaves the API untouched.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

describe(`an exhausted database pool (${serverUrl ? 'PostgreSQL' : 'embedded'})`, () => {
  let service: RunningService;
  let dataDir: string;
  let drop = async () => {};
  let token: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-pool-'));
    const scratch = serverUrl ? await createScratchDatabase(serverUrl) : null;
    if (scratch) drop = scratch.drop;
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(scratch ? { DATABASE_URL: scratch.url, DRIFTWATCH_MASTER_KEY: randomMasterKey() } : {}),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_POOL_SIZE: '1',
      DATABASE_JOB_POOL_SIZE: '2',
      DATABASE_ACQUIRE_TIMEOUT_MS: '300',
    });
    service = await startService(config, 'api');
    token =
      service.bootstrap?.ownerToken ??
      (await createTenantWithOwner(service.database, { name: 'Pool', plan: 'enterprise' }))
        .ownerToken;
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (path: string) =>
    fetch(`${service.address}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('answers 503 with Retry-After within the acquire timeout', async () => {
    const { pool, readPool } = service.database;
    const held: pg.PoolClient[] = [await pool.connect()];
    if (readPool) held.push(await readPool.connect());
    try {
      for (const path of ['/api/v1/api-tokens', '/api/v1/repositories']) {
        const before = Date.now();
        const response = await get(path);
        const elapsed = Date.now() - before;
        expect(response.status).toBe(503);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(response.headers.get('retry-after')).toBe('1');
        const problem = await response.json();
        expect(problem).toMatchObject({ status: 503, correlationId: expect.any(String) });
        expect(elapsed).toBeLessThan(2000);
      }
    } finally {
      for (const client of held) client.release();
    }
    expect((await get('/api/v1/api-tokens')).status).toBe(200);
  });

  it.runIf(serverUrl)('serves requests while the job pool is exhausted (PostgreSQL)', async () => {
    const jobPool = service.database.jobs.pool;
    const held = [await jobPool.connect(), await jobPool.connect()];
    try {
      expect(jobPool).not.toBe(service.database.pool);
      expect((await get('/api/v1/api-tokens')).status).toBe(200);
      expect((await get('/api/v1/repositories')).status).toBe(200);
    } finally {
      for (const client of held) client.release();
    }
  });
});

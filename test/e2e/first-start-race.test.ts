import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { type RunningService, startService } from '../../src/service';
import { createScratchDatabase, randomMasterKey } from '../support/service-process';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn('first-start race skipped: it needs TEST_DATABASE_URL (PostgreSQL)');

/**
 * Two processes that start together on an empty PostgreSQL database (two replicas rolled out at
 * once) must make one first tenant between them, printed by one of them: the migrations and the
 * first tenant are each taken under an advisory lock.
 */
describe.skipIf(!serverUrl)('two first starts on one empty PostgreSQL database', () => {
  const started: RunningService[] = [];
  const dataDirs: string[] = [];
  let drop: (() => Promise<void>) | null = null;

  afterAll(async () => {
    await Promise.all(started.map((service) => service.stop()));
    await drop?.();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('make exactly one tenant and show its token once', async () => {
    const scratch = await createScratchDatabase(serverUrl as string);
    drop = scratch.drop;
    const masterKey = randomMasterKey();
    const start = () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-race-'));
      dataDirs.push(dataDir);
      const config = loadConfig({
        DATABASE_URL: scratch.url,
        DRIFTWATCH_MASTER_KEY: masterKey,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      });
      return startService(config, 'all');
    };
    const services = await Promise.all([start(), start()]);
    started.push(...services);
    const bootstraps = services.map((service) => service.bootstrap).filter((b) => b !== null);
    expect(bootstraps).toHaveLength(1);
    expect(bootstraps[0]?.ownerToken).toMatch(/^dw_/);
    const { rows } = await services[0]!.database.pool.query(
      'SELECT count(*)::int AS n FROM tenants',
    );
    expect(rows[0].n).toBe(1);
    const migrations = await services[0]!.database.pool.query(
      'SELECT count(*)::int AS n, count(DISTINCT name)::int AS distinct_names FROM schema_migrations',
    );
    expect(migrations.rows[0].n).toBe(migrations.rows[0].distinct_names);
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/test-app';
import type { Database } from '../db/connection';
import { withTenant } from '../db/tenant-scope';
import { createTenantWithOwner } from '../domains/tenants/service';
import { type EventSubscriptions, enqueueJob, relayOutbox } from './outbox';

const NO_EVENTS: EventSubscriptions = { 'dependencies.changed': [], 'integration.disabled': [] };

import { createJobQueue, type JobQueue } from './queue';

/**
 * The relay against real pg-boss on the test database. On the embedded database (one open
 * transaction served at a time) a relay that sent through a second connection while holding its
 * transaction would never finish: sending through the transaction's own client is what makes
 * this pass, and makes the job and the outbox row's removal commit together.
 */
describe('outbox relay to pg-boss', () => {
  let database: Database;
  let queue: JobQueue;
  beforeAll(async () => {
    database = await openTestDatabase();
    queue = await createJobQueue(database);
    queue.register({
      name: 'test.relayed',
      expireInSeconds: 60,
      retryLimit: 0,
      handle: async () => {},
    });
    await queue.prepare();
  });
  afterAll(async () => {
    await queue.stop();
    await database.close();
  });

  it('moves committed rows into pg-boss in the same transaction', async () => {
    const tenant = await createTenantWithOwner(database, { name: 'Relay', plan: 'enterprise' });
    await withTenant(database, tenant.tenantId, async (db) => {
      await enqueueJob(db, {
        tenantId: tenant.tenantId,
        name: 'test.relayed',
        data: { n: 1 },
        correlationId: 'c-1',
      });
      await enqueueJob(db, { tenantId: tenant.tenantId, name: 'test.relayed', data: { n: 2 } });
    });
    const moved = await relayOutbox(database, NO_EVENTS, (name, envelope, db) =>
      queue.send(name, envelope, { db }),
    );
    expect(moved).toBe(2);
    expect(
      await relayOutbox(database, NO_EVENTS, (name, envelope, db) =>
        queue.send(name, envelope, { db }),
      ),
    ).toBe(0);
    const jobs = await queue.boss.fetch<{ data: { n: number }; correlationId: string | null }>(
      'test.relayed',
      {
        batchSize: 10,
      },
    );
    expect(jobs.map((job) => job.data.data.n).sort()).toEqual([1, 2]);
    expect(jobs.find((job) => job.data.data.n === 1)?.data.correlationId).toBe('c-1');
  });

  it('keeps the rows when sending fails (nothing half-relayed)', async () => {
    const tenant = await createTenantWithOwner(database, { name: 'Relay 2', plan: 'enterprise' });
    await withTenant(database, tenant.tenantId, (db) =>
      enqueueJob(db, { tenantId: tenant.tenantId, name: 'test.relayed', data: { n: 3 } }),
    );
    await expect(
      relayOutbox(database, NO_EVENTS, async (name, envelope, db) => {
        await queue.send(name, envelope, { db });
        throw new Error('queue refused');
      }),
    ).rejects.toThrow('queue refused');
    expect(await queue.boss.fetch('test.relayed', { batchSize: 10 })).toEqual([]);
    expect(
      await relayOutbox(database, NO_EVENTS, (name, envelope, db) =>
        queue.send(name, envelope, { db }),
      ),
    ).toBe(1);
  });
});

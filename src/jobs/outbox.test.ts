import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { withTenant } from '../db/tenant-scope';
import {
  EVENT_SUBSCRIBERS,
  emitEvent,
  enqueueJob,
  relayOutbox,
  subscribe,
  takeOutbox,
} from './outbox';

describe('job outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps a job only when its transaction commits', async () => {
    const a = await t.createTenant();
    await withTenant(t.database, a.tenantId, (db) =>
      enqueueJob(db, { tenantId: a.tenantId, name: 'test.kept', data: { n: 1 } }),
    );
    await expect(
      withTenant(t.database, a.tenantId, async (db) => {
        await enqueueJob(db, { tenantId: a.tenantId, name: 'test.dropped', data: { n: 2 } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const taken = await takeOutbox(t.database);
    expect(taken.map((job) => job.name)).toEqual(['test.kept']);
    expect(taken[0]?.envelope).toEqual({
      version: 1,
      tenantId: a.tenantId,
      correlationId: null,
      data: { n: 1 },
    });
    expect(await takeOutbox(t.database)).toEqual([]);
  });

  it('refuses a row for another tenant (row-level security)', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    await expect(
      withTenant(t.database, a.tenantId, (db) =>
        enqueueJob(db, { tenantId: b.tenantId, name: 'test.foreign', data: {} }),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('fans an event out to each subscriber and relays in order', async () => {
    const a = await t.createTenant();
    subscribe('dependencies.changed', 'test.first');
    subscribe('dependencies.changed', 'test.second');
    subscribe('dependencies.changed', 'test.second');
    await withTenant(t.database, a.tenantId, (db) =>
      emitEvent(db, 'dependencies.changed', {
        tenantId: a.tenantId,
        correlationId: 'corr-1',
        data: { repositoryId: 'r', scanId: 's' },
      }),
    );
    // The service's own subscribers (exposures, packages) come first, then the two added here.
    const expected = [...EVENT_SUBSCRIBERS['dependencies.changed']];
    expect(expected.slice(-2)).toEqual(['test.first', 'test.second']);
    const sent: string[] = [];
    expect(await relayOutbox(t.database, async (name) => sent.push(name))).toBe(expected.length);
    expect(sent).toEqual(expected);
    expect(await relayOutbox(t.database, async () => {})).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { withTenant } from '../db/tenant-scope';
import {
  type EventSubscriptions,
  enqueueEvent,
  enqueueEvents,
  enqueueJob,
  relayOutbox,
  takeOutbox,
} from './outbox';

// The subscription table is data handed to the relay; these tests use their own.
const SUBSCRIPTIONS: EventSubscriptions = {
  'dependencies.changed': ['test.first', 'test.second'],
  'integration.disabled': [],
};
const NONE: EventSubscriptions = { 'dependencies.changed': [], 'integration.disabled': [] };

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
    const taken = await takeOutbox(t.database, SUBSCRIPTIONS);
    expect(taken.map((job) => job.name)).toEqual(['test.kept']);
    expect(taken[0]?.envelope).toEqual({
      version: 1,
      tenantId: a.tenantId,
      correlationId: null,
      data: { n: 1 },
    });
    expect(await takeOutbox(t.database, SUBSCRIPTIONS)).toEqual([]);
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

  it('fans an event out to each subscriber of the table it is given, in order', async () => {
    const a = await t.createTenant();
    const emit = () =>
      withTenant(t.database, a.tenantId, (db) =>
        enqueueEvent(db, 'dependencies.changed', {
          tenantId: a.tenantId,
          correlationId: 'corr-1',
          data: { repositoryId: 'r', scanId: 's' },
        }),
      );
    await emit();
    const sent: { name: string; data: unknown; correlationId: string | null }[] = [];
    expect(
      await relayOutbox(t.database, SUBSCRIPTIONS, async (name, envelope) => {
        sent.push({ name, data: envelope.data, correlationId: envelope.correlationId });
      }),
    ).toBe(1);
    const data = { repositoryId: 'r', scanId: 's' };
    expect(sent).toEqual([
      { name: 'test.first', data, correlationId: 'corr-1' },
      { name: 'test.second', data, correlationId: 'corr-1' },
    ]);
    expect(await relayOutbox(t.database, SUBSCRIPTIONS, async () => {})).toBe(0);

    // Inline (tests) the same table decides; an event nobody subscribes to starts nothing.
    await emit();
    expect((await takeOutbox(t.database, SUBSCRIPTIONS)).map((job) => job.name)).toEqual([
      'test.first',
      'test.second',
    ]);
    await emit();
    expect(await takeOutbox(t.database, NONE)).toEqual([]);
  });

  it('writes several events as one batch row and relays each as its own jobs', async () => {
    const a = await t.createTenant();
    const events = [
      { repositoryId: 'r1', scanId: 's1' },
      { repositoryId: 'r2', scanId: 's2' },
    ];
    const emit = () =>
      withTenant(t.database, a.tenantId, (db) =>
        enqueueEvents(db, 'dependencies.changed', {
          tenantId: a.tenantId,
          correlationId: 'corr-2',
          data: events,
        }),
      );
    await emit();
    const sent: { name: string; data: unknown; correlationId: string | null }[] = [];
    expect(
      await relayOutbox(t.database, SUBSCRIPTIONS, async (name, envelope) => {
        sent.push({ name, data: envelope.data, correlationId: envelope.correlationId });
      }),
    ).toBe(1);
    expect(sent).toEqual([
      { name: 'test.first', data: events[0], correlationId: 'corr-2' },
      { name: 'test.second', data: events[0], correlationId: 'corr-2' },
      { name: 'test.first', data: events[1], correlationId: 'corr-2' },
      { name: 'test.second', data: events[1], correlationId: 'corr-2' },
    ]);

    await emit();
    const taken = await takeOutbox(t.database, SUBSCRIPTIONS);
    expect(taken.map((job) => [job.name, job.envelope.data])).toEqual([
      ['test.first', events[0]],
      ['test.second', events[0]],
      ['test.first', events[1]],
      ['test.second', events[1]],
    ]);
    await emit();
    expect(await takeOutbox(t.database, NONE)).toEqual([]);
  });
  it('bounds a pass by its job budget: a batch row is split and the rest relayed next, in order', async () => {
    const a = await t.createTenant();
    const events = Array.from({ length: 7 }, (_, i) => ({
      repositoryId: `r${i}`,
      scanId: `s${i}`,
    }));
    await withTenant(t.database, a.tenantId, async (db) => {
      await enqueueEvents(db, 'dependencies.changed', { tenantId: a.tenantId, data: events });
      await enqueueJob(db, { tenantId: a.tenantId, name: 'test.after', data: { n: 1 } });
    });
    const passes: string[][] = [];
    const relay = async () => {
      const sent: string[] = [];
      const moved = await relayOutbox(
        t.database,
        SUBSCRIPTIONS,
        async (name, envelope) => {
          const data = envelope.data;
          const repositoryId =
            typeof data === 'object' && data !== null && 'repositoryId' in data
              ? data.repositoryId
              : '-';
          sent.push(`${name}:${repositoryId}`);
        },
        5,
      );
      passes.push(sent);
      return moved;
    };
    // Two subscribers: a budget of 5 jobs takes two events (4 jobs) per pass.
    expect(await relay()).toBe(1);
    expect(await relay()).toBe(1);
    expect(await relay()).toBe(1);
    // The last event (2 jobs) and the job row behind it (1) fit together.
    expect(await relay()).toBe(2);
    expect(await relay()).toBe(0);
    expect(passes.map((p) => p.length)).toEqual([4, 4, 4, 3, 0]);
    expect(passes.flat()).toEqual([
      ...events.flatMap((e) => [`test.first:${e.repositoryId}`, `test.second:${e.repositoryId}`]),
      'test.after:-',
    ]);
  });

  it('sends a row larger than the budget whole when it comes first (never stuck)', async () => {
    const a = await t.createTenant();
    await withTenant(t.database, a.tenantId, (db) =>
      enqueueEvent(db, 'dependencies.changed', {
        tenantId: a.tenantId,
        data: { repositoryId: 'r', scanId: 's' },
      }),
    );
    const sent: string[] = [];
    expect(await relayOutbox(t.database, SUBSCRIPTIONS, async (name) => sent.push(name), 1)).toBe(
      1,
    );
    expect(sent).toEqual(['test.first', 'test.second']);
    expect(await takeOutbox(t.database, SUBSCRIPTIONS)).toEqual([]);
  });
});

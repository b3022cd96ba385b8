import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS } from '../../../background-jobs';
import { withTenant } from '../../../db/tenant-scope';
import type { ExtractedFile } from '../../../ecosystems/extract-tree';
import { takeOutbox } from '../../../jobs/outbox';
import { sweepStaleScans } from '../run/worker';
import { queueScan, storeScanDependencies, switchToGeneration } from '../service';
import { claimScan, completeScan, ownsRun, type ScanRun } from '../store';
import {
  dropReplacedGeneration,
  type GenerationTarget,
  type StoreFence,
  stageGeneration,
  sweepLeftoverGenerations,
} from './generations';

/**
 * Dependency generations (docs/repositories-and-scans.md, "Storing dependencies"): readers see
 * the old complete set or the new complete set, never a part; a run that dies mid-store leaves
 * the old set visible and its chunks to the recovery sweep.
 */

const lockfile = (prefix: string, count: number): ExtractedFile => ({
  path: 'package-lock.json',
  ecosystem: 'npm',
  format: 'package-lock.json v3',
  extractor: 'npm/package-lock',
  errors: [],
  dependencies: Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${i}`,
    version: '1.0.0',
    purl: `pkg:npm/${prefix}-${i}@1.0.0`,
    scope: 'runtime',
    direct: i === 0,
    resolution: 'resolved',
    line: i + 1,
    parents: [],
    source: { kind: 'registry' },
  })),
});

class Crash extends Error {}

describe('dependency generations', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let repositoryId: string;
  const OLD = 30;
  const NEW = 45;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A repository whose current generation is OLD dependencies named old-*. */
  beforeEach(async () => {
    tenant = await t.createTenant();
    repositoryId = await insertRepository(t, tenant.tenantId, `gen-${Date.now()}`);
    const first = await startRun();
    await withTenant(t.database, tenant.tenantId, async (db) => {
      await storeScanDependencies(db, {
        tenantId: tenant.tenantId,
        repositoryId,
        scanId: first.scanId,
        files: [lockfile('old', OLD)],
      });
      await completeScan(db, first, { commitSha: null, ...counts(OLD) });
    });
  });

  const counts = (n: number) => ({
    dependencyCount: n,
    fileCount: 1,
    countsByEcosystem: { npm: n },
  });

  /** A queued scan claimed by a run (its job discarded: the test plays the worker). */
  async function startRun(): Promise<ScanRun> {
    const { scan } = await withTenant(t.database, tenant.tenantId, (db) =>
      queueScan(db, {
        tenantId: tenant.tenantId,
        repositoryId,
        trigger: 'manual',
        correlationId: 'test',
      }),
    );
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    const claimed = await withTenant(t.database, tenant.tenantId, (db) => claimScan(db, scan.id));
    if (!claimed) throw new Error('not claimed');
    return { tenantId: tenant.tenantId, scanId: scan.id, attempt: claimed.attempt };
  }

  const targetOf = (run: ScanRun): GenerationTarget => ({
    tenantId: run.tenantId,
    repositoryId,
    scanId: run.scanId,
  });

  /** What readers see (the view), and how many rows the table holds, in one transaction. */
  const observe = () =>
    withTenant(t.database, tenant.tenantId, async (db) => {
      const visible = await db
        .selectFrom('repository_dependencies')
        .select(['name', 'scan_id'])
        .where('repository_id', '=', repositoryId)
        .orderBy('name')
        .execute();
      const stored = await db
        .selectFrom('repository_dependency_rows')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('repository_id', '=', repositoryId)
        .executeTakeFirstOrThrow();
      return {
        names: visible.map((row) => row.name),
        scans: new Set(visible.map((r) => r.scan_id)),
        rows: stored.n,
      };
    });

  const names = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => `${prefix}-${i}`).sort();

  const ledger = () =>
    withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('dependency_generations').selectAll().execute(),
    );

  const switchAndComplete = (run: ScanRun) =>
    withTenant(t.database, tenant.tenantId, async (db) => {
      const previous = await switchToGeneration(db, targetOf(run));
      await completeScan(db, run, { commitSha: null, ...counts(NEW) });
      return previous;
    });

  it('a reader during a chunked store sees the old complete set or the new one, never a part', async () => {
    const oldNames = names('old', OLD);
    const newNames = names('new', NEW);
    const run = await startRun();
    let storing = true;
    const seen: Array<Awaited<ReturnType<typeof observe>>> = [];
    const reader = (async () => {
      while (storing) {
        seen.push(await observe());
        await new Promise((resolve) => setImmediate(resolve));
      }
      seen.push(await observe());
    })();
    const fence: StoreFence = (db) => ownsRun(db, run, true);
    expect(await stageGeneration(t.database, targetOf(run), [lockfile('new', NEW)], fence, 4)).toBe(
      true,
    );
    const previous = await switchAndComplete(run);
    await dropReplacedGeneration(t.database, tenant.tenantId, previous as string);
    storing = false;
    await reader;

    for (const view of seen) {
      const complete =
        JSON.stringify(view.names) === JSON.stringify(oldNames) ||
        JSON.stringify(view.names) === JSON.stringify(newNames);
      expect(complete, `saw ${view.names.length} names`).toBe(true);
      expect(view.scans.size).toBe(1);
    }
    // The reader did look while the new generation was half stored (the test can fail).
    expect(seen.some((v) => v.names.length === OLD && v.rows > OLD && v.rows < OLD + NEW)).toBe(
      true,
    );
    expect(seen.some((v) => v.names.length === NEW)).toBe(true);
    // The replaced generation is gone, and with it its ledger row.
    expect(await observe()).toMatchObject({ names: newNames, rows: NEW });
    expect(await ledger()).toEqual([]);
  });

  it('a run killed mid-store leaves the old set visible; the sweep removes its chunks', async () => {
    const run = await startRun();
    let chunks = 0;
    const dying: StoreFence = async (db) => {
      if (++chunks > 5) throw new Crash('killed');
      return ownsRun(db, run, true);
    };
    await expect(
      stageGeneration(t.database, targetOf(run), [lockfile('new', NEW)], dying, 4),
    ).rejects.toBeInstanceOf(Crash);
    const after = await observe();
    expect(after.names).toEqual(names('old', OLD));
    expect(after.rows).toBeGreaterThan(OLD);

    // While the scan still counts as running, the sweep leaves its chunks alone.
    expect(await sweepLeftoverGenerations(t.database)).toBe(0);
    expect((await observe()).rows).toBe(after.rows);

    // Its heartbeat goes stale: the scan is re-queued, then the sweep deletes the chunks.
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .updateTable('scans')
        .set({ heartbeat_at: sql`now() - interval '1 hour'` })
        .where('id', '=', run.scanId)
        .execute(),
    );
    expect(await sweepStaleScans(t.jobDeps)).toMatchObject({ requeued: 1 });
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    expect(await sweepLeftoverGenerations(t.database)).toBe(1);
    expect(await observe()).toMatchObject({ names: names('old', OLD), rows: OLD });
    expect(await ledger()).toEqual([]);
  });

  it('the next attempt of a scan killed mid-store clears its chunks first (no duplicates)', async () => {
    const run = await startRun();
    let chunks = 0;
    const dying: StoreFence = async (db) => {
      if (++chunks > 3) throw new Crash('killed');
      return ownsRun(db, run, true);
    };
    await expect(
      stageGeneration(t.database, targetOf(run), [lockfile('new', NEW)], dying, 4),
    ).rejects.toBeInstanceOf(Crash);
    // Re-queued and claimed again before any sweep ran.
    await withTenant(t.database, tenant.tenantId, (db) =>
      db.updateTable('scans').set({ state: 'queued' }).where('id', '=', run.scanId).execute(),
    );
    const claimed = await withTenant(t.database, tenant.tenantId, (db) =>
      claimScan(db, run.scanId),
    );
    const retry: ScanRun = { ...run, attempt: claimed?.attempt as number };
    const fence: StoreFence = (db) => ownsRun(db, retry, true);
    expect(
      await stageGeneration(t.database, targetOf(retry), [lockfile('new', NEW)], fence, 4),
    ).toBe(true);
    const previous = await switchAndComplete(retry);
    // The old set's deletion dies too: its ledger row stays, and the sweep finishes it.
    expect((await ledger()).map((g) => g.state)).toEqual(['retired']);
    expect(previous).not.toBeNull();
    expect(await sweepLeftoverGenerations(t.database)).toBe(1);
    expect(await observe()).toMatchObject({ names: names('new', NEW), rows: NEW });
    expect(await ledger()).toEqual([]);
  });

  it('a run that loses its scan (cancelled) stops storing and switches nothing', async () => {
    const run = await startRun();
    let chunks = 0;
    const fence: StoreFence = async (db) => {
      if (++chunks === 4) {
        await db
          .updateTable('scans')
          .set({ state: 'cancelled' })
          .where('id', '=', run.scanId)
          .execute();
      }
      return ownsRun(db, run, true);
    };
    expect(await stageGeneration(t.database, targetOf(run), [lockfile('new', NEW)], fence, 4)).toBe(
      false,
    );
    expect((await observe()).names).toEqual(names('old', OLD));
    expect(await sweepLeftoverGenerations(t.database)).toBe(1);
    expect(await observe()).toMatchObject({ names: names('old', OLD), rows: OLD });
  });

  it('another tenant sees none of the rows or generations', async () => {
    const other = await t.createTenant();
    const seen = await withTenant(t.database, other.tenantId, async (db) => ({
      rows: await db.selectFrom('repository_dependency_rows').select('id').execute(),
      view: await db.selectFrom('repository_dependencies').select('id').execute(),
      ledger: await db.selectFrom('dependency_generations').select('scan_id').execute(),
    }));
    expect(seen).toEqual({ rows: [], view: [], ledger: [] });
    expect((await observe()).rows).toBe(OLD);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository as insertTestRepository,
  type TestApp,
} from '../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS } from '../../background-jobs';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import type { ExtractedFile } from '../../ecosystems/extract-tree';
import { takeOutbox } from '../../jobs/outbox';
import { queueScan, RUN_SCAN, storeScanDependencies } from './service';

const insertRepository = (t: TestApp, tenantId: string, name: string) =>
  insertTestRepository(t, tenantId, name, { default_branch: 'trunk' });

const file = (path: string, deps: Array<[string, string, string[]]>): ExtractedFile => ({
  path,
  ecosystem: 'npm',
  format: 'package-lock.json v3',
  extractor: 'npm/package-lock',
  errors: [],
  dependencies: deps.map(([name, version, parents]) => ({
    name,
    version,
    purl: `pkg:npm/${name.replace('@', '%40')}@${version}`,
    scope: 'runtime',
    direct: parents.length === 0,
    resolution: 'resolved',
    line: 1,
    parents,
    source: { kind: 'registry' },
  })),
});

describe('scan service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('queues one scan per repository and its job in the same transaction', async () => {
    const tenant = await t.createTenant();
    const repositoryId = await insertRepository(t, tenant.tenantId, 'queue-me');
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    const first = await withTenant(t.database, tenant.tenantId, (db) =>
      queueScan(db, {
        tenantId: tenant.tenantId,
        repositoryId,
        trigger: 'manual',
        correlationId: 'c1',
      }),
    );
    expect(first.created).toBe(true);
    expect(first.scan.state).toBe('queued');
    expect(first.scan.branch).toBe('trunk');
    const second = await withTenant(t.database, tenant.tenantId, (db) =>
      queueScan(db, {
        tenantId: tenant.tenantId,
        repositoryId,
        trigger: 'push',
        correlationId: 'c2',
      }),
    );
    expect(second).toMatchObject({ created: false, scan: { id: first.scan.id } });
    const jobs = await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    expect(jobs.map((job) => job.name)).toEqual([RUN_SCAN.name]);
    expect(jobs[0]?.envelope.data).toEqual({ scanId: first.scan.id, repositoryId });
    expect(jobs[0]?.envelope.correlationId).toBe('c1');

    // A rolled-back trigger leaves neither scan nor job.
    await withTenant(t.database, tenant.tenantId, (db) =>
      db.updateTable('scans').set({ state: 'completed' }).where('id', '=', first.scan.id).execute(),
    );
    await expect(
      withTenant(t.database, tenant.tenantId, async (db) => {
        await queueScan(db, {
          tenantId: tenant.tenantId,
          repositoryId,
          trigger: 'manual',
          correlationId: null,
        });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await takeOutbox(t.database, EVENT_SUBSCRIPTIONS)).toEqual([]);
  });

  it('refuses a repository of another tenant', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    const repositoryId = await insertRepository(t, a.tenantId, 'theirs');
    await expect(
      withTenant(t.database, b.tenantId, (db) =>
        queueScan(db, {
          tenantId: b.tenantId,
          repositoryId,
          trigger: 'manual',
          correlationId: null,
        }),
      ),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('replaces the dependencies, shares catalogue rows between tenants and emits the event', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    const repoA = await insertRepository(t, a.tenantId, 'store-a');
    const repoB = await insertRepository(t, b.tenantId, 'store-b');
    await takeOutbox(t.database, EVENT_SUBSCRIPTIONS);
    const stored = await withTenant(t.database, a.tenantId, (db) =>
      storeScanDependencies(db, {
        tenantId: a.tenantId,
        repositoryId: repoA,
        scanId: newId(),
        files: [
          file('package-lock.json', [
            ['left-pad', '1.3.0', []],
            ['@types/node', '20.1.0', ['left-pad']],
          ]),
        ],
      }),
    );
    expect(stored).toEqual({ dependencyCount: 2, fileCount: 1, countsByEcosystem: { npm: 2 } });
    const events = await takeOutbox(t.database, {
      'dependencies.changed': ['test.deps-changed'],
      'integration.disabled': [],
    });
    expect(events.map((e) => e.name)).toContain('test.deps-changed');

    await withTenant(t.database, b.tenantId, (db) =>
      storeScanDependencies(db, {
        tenantId: b.tenantId,
        repositoryId: repoB,
        scanId: newId(),
        files: [file('web/package-lock.json', [['left-pad', '1.1.0', []]])],
      }),
    );
    const catalogue = await t.database.system
      .selectFrom('packages')
      .selectAll()
      .where('ecosystem', '=', 'npm')
      .where('name', 'in', ['left-pad', '@types/node'])
      .orderBy('name')
      .execute();
    expect(catalogue.map((p) => p.purl)).toEqual(['pkg:npm/%40types/node', 'pkg:npm/left-pad']);

    const scanId = newId();
    await withTenant(t.database, a.tenantId, (db) =>
      storeScanDependencies(db, {
        tenantId: a.tenantId,
        repositoryId: repoA,
        scanId,
        files: [file('package-lock.json', [['left-pad', '1.3.1', []]])],
      }),
    );
    const rows = await withTenant(t.database, a.tenantId, (db) =>
      db.selectFrom('repository_dependencies').selectAll().execute(),
    );
    expect(rows.map((r) => [r.name, r.version, r.scan_id])).toEqual([
      ['left-pad', '1.3.1', scanId],
    ]);
    expect(rows[0]?.package_id).toBe(catalogue.find((p) => p.name === 'left-pad')?.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  type MetadataOptions,
  packageMetadata,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import type { PackageMetadata, RegistryClient } from '../../ecosystems/registry-types';
import { enrichPackages } from '../../intel/package-catalogue/enrichment';
import { emitCatalogueEvents } from '../packages/catalogue-events';

/** A registry answer for `cat-pkg`: versions oldest first, the last one latest stable. */
const answer = ({ versions, ...options }: MetadataOptions & { versions: string[] }) =>
  packageMetadata('cat-pkg', versions, options);

describe('alerts from the shared package catalogue', () => {
  let t: TestApp;
  let user: TestTenant;
  let watcher: TestTenant;
  let bystander: TestTenant;
  let repositoryId: string;
  let packageId: string;
  let next: PackageMetadata;

  const client: RegistryClient = {
    ecosystem: 'npm',
    status: { state: 'enabled', baseUrl: 'http://127.0.0.1:9' },
    fetchPackage: async () => next,
  };
  const fetch = async (metadata: PackageMetadata) => {
    next = metadata;
    await enrichPackages(
      {
        db: t.database.system,
        clients: { npm: client },
        settings: { staleAfterHours: 24, refreshBatchSize: 10, fetchConcurrency: 1 },
        onChange: emitCatalogueEvents,
      },
      [{ id: packageId, ecosystem: 'npm', name: 'cat-pkg' }],
    );
    await t.runJobs();
  };
  const kinds = async (tenant: TestTenant) => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/alerts' });
    return (res.json().items as { kind: string; payload: Record<string, unknown> }[]).map(
      (i) => i.kind,
    );
  };

  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createTenant('enterprise', 'User');
    watcher = await t.createTenant('enterprise', 'Watcher');
    bystander = await t.createTenant('enterprise', 'Bystander');
    repositoryId = await insertRepository(t, user.tenantId, 'web');
    await scanWith(t, user.tenantId, repositoryId, [{ name: 'cat-pkg', version: '1.0.0' }]);
    const found = await t.database.system
      .selectFrom('packages')
      .select('id')
      .where('name', '=', 'cat-pkg')
      .executeTakeFirstOrThrow();
    packageId = found.id;
    // A watch as the packages domain stores it (the watch route only sees packages in use).
    await withTenant(t.database, watcher.tenantId, (db) =>
      db.insertInto('package_watches').values({ package_id: packageId, id: newId() }).execute(),
    );
    for (const tenant of [user, watcher, bystander]) {
      for (const kind of [
        'package_deprecated',
        'package_versions_yanked',
        'maintainers_changed',
        'package_released',
      ]) {
        const res = await t.as(tenant.token, {
          method: 'POST',
          url: '/api/v1/alert-rules',
          payload: { name: kind, kind },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
    }
  });
  afterAll(() => t.close());

  const healthRule = async (settings: object) => {
    const res = await t.as(user.token, {
      method: 'POST',
      url: '/api/v1/alert-rules',
      payload: { name: 'health', kind: 'health_score', settings },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('a first fetch is no change; later changes alert the tenants that use or watch the package', async () => {
    await fetch(answer({ versions: ['1.0.0', '1.1.0'] }));
    expect(await kinds(user)).toEqual([]);

    await fetch(
      answer({ versions: ['1.0.0', '1.1.0', '1.2.0'], maintainers: ['alice', 'mallory'] }),
    );
    // Releases alert only where the package is watched (package_released is about watches).
    expect(await kinds(user)).toEqual(['maintainers_changed']);
    // The watcher uses no version of it: it hears of releases and people, not of yanks.
    expect((await kinds(watcher)).sort()).toEqual(['maintainers_changed', 'package_released']);
    expect(await kinds(bystander)).toEqual([]);

    await healthRule({ droppedBy: 1 });
    await healthRule({ below: 1 });
    await fetch(
      answer({
        versions: ['1.0.0', '1.1.0', '1.2.0'],
        yanked: ['1.0.0'],
        maintainers: ['alice', 'mallory'],
        deprecated: 'use dog-pkg',
        successor: 'dog-pkg',
      }),
    );
    const userKinds = await kinds(user);
    expect(userKinds.filter((k) => k === 'package_versions_yanked')).toHaveLength(1);
    expect(userKinds.filter((k) => k === 'package_deprecated')).toHaveLength(1);
    expect(await kinds(watcher)).toContain('package_deprecated');
    expect(await kinds(watcher)).not.toContain('package_versions_yanked');
    const res = await t.as(user.token, {
      method: 'GET',
      url: '/api/v1/alerts?kind=package_versions_yanked',
    });
    expect(res.json().items[0]).toMatchObject({
      severity: 'high',
      repositoryIds: [repositoryId],
      payload: { name: 'cat-pkg', versions: ['1.0.0'], repositoryIds: [repositoryId] },
    });
    // Deprecation lowers the health score: the drop rule alerts, the "below 1" rule does not.
    const health = await t.as(user.token, {
      method: 'GET',
      url: '/api/v1/alerts?kind=health_score',
    });
    expect(health.json().items).toHaveLength(1);
    const { previousScore, score } = health.json().items[0].payload;
    expect(previousScore).toBeGreaterThan(score);
    // The same answer again changes nothing.
    const before = (await kinds(user)).length;
    await fetch(
      answer({
        versions: ['1.0.0', '1.1.0', '1.2.0'],
        yanked: ['1.0.0'],
        maintainers: ['alice', 'mallory'],
        deprecated: 'use dog-pkg',
        successor: 'dog-pkg',
      }),
    );
    expect(await kinds(user)).toHaveLength(before);
  });

  it('a first health snapshot can alert: a package that starts below the threshold is heard of', async () => {
    const newcomer = await t.createTenant('enterprise', 'Newcomer');
    const repository = await insertRepository(t, newcomer.tenantId, 'fresh');
    await scanWith(t, newcomer.tenantId, repository, [{ name: 'fresh-pkg', version: '1.0.0' }]);
    const fresh = await t.database.system
      .selectFrom('packages')
      .select('id')
      .where('name', '=', 'fresh-pkg')
      .executeTakeFirstOrThrow();
    const rule = await t.as(newcomer.token, {
      method: 'POST',
      url: '/api/v1/alert-rules',
      payload: { name: 'unhealthy', kind: 'health_score', settings: { below: 100 } },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    next = answer({ name: 'fresh-pkg', purl: 'pkg:npm/fresh-pkg', versions: ['1.0.0'] });
    await enrichPackages(
      {
        db: t.database.system,
        clients: { npm: client },
        settings: { staleAfterHours: 24, refreshBatchSize: 10, fetchConcurrency: 1 },
        onChange: emitCatalogueEvents,
      },
      [{ id: fresh.id, ecosystem: 'npm', name: 'fresh-pkg' }],
    );
    await t.runJobs();
    const res = await t.as(newcomer.token, {
      method: 'GET',
      url: '/api/v1/alerts?kind=health_score',
    });
    const items = res.json().items as { subject: string; payload: Record<string, unknown> }[];
    expect(items).toHaveLength(1);
    expect(items[0]?.subject).toBe(fresh.id);
    expect(items[0]?.payload).toMatchObject({ name: 'fresh-pkg', previousScore: null });
    expect(items[0]?.payload.score).toEqual(expect.any(Number));
  });
});

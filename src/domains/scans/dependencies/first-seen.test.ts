import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { withTenant } from '../../../db/tenant-scope';

/**
 * dependency_first_seen (migration 0058) as generations replace each other: a package keeps the
 * time it first came while it stays, one that goes loses its row, one that comes back is new
 * again; another tenant's repository is not touched.
 */
describe('when a repository first had each dependency', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
  });
  afterAll(() => t.close());

  const firstSeen = (tenantId: string, repositoryId: string) =>
    withTenant(t.database, tenantId, (db) =>
      db
        .selectFrom('dependency_first_seen as f')
        .innerJoin('packages as p', 'p.id', 'f.package_id')
        .select(['p.name', 'f.first_seen_at', 'f.first_seen_scan_id'])
        .where('f.repository_id', '=', repositoryId)
        .orderBy('p.name')
        .execute(),
    );
  const dated = (tenantId: string, repositoryId: string, iso: string) =>
    withTenant(t.database, tenantId, (db) =>
      db
        .updateTable('dependency_first_seen')
        .set({ first_seen_at: new Date(iso) })
        .where('repository_id', '=', repositoryId)
        .execute(),
    );

  it('keeps the first time while a package stays, and forgets one that went', async () => {
    const web = await insertRepository(t, a.tenantId, 'web');
    const other = await insertRepository(t, b.tenantId, 'web');
    await scanWith(t, b.tenantId, other, [{ name: 'alpha', version: '1.0.0' }], []);
    await scanWith(
      t,
      a.tenantId,
      web,
      [
        { name: 'alpha', version: '1.0.0' },
        { name: 'beta', version: '1.0.0' },
      ],
      [],
    );
    expect((await firstSeen(a.tenantId, web)).map((r) => r.name)).toEqual(['alpha', 'beta']);
    await dated(a.tenantId, web, '2026-01-01T00:00:00Z');

    await scanWith(
      t,
      a.tenantId,
      web,
      [
        { name: 'beta', version: '2.0.0' },
        { name: 'gamma', version: '1.0.0' },
      ],
      [],
    );
    const second = await firstSeen(a.tenantId, web);
    expect(second.map((r) => r.name)).toEqual(['beta', 'gamma']);
    expect(second[0]?.first_seen_at.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(second[1]?.first_seen_at.getTime()).toBeGreaterThan(Date.now() - 60_000);

    await scanWith(
      t,
      a.tenantId,
      web,
      [
        { name: 'alpha', version: '1.0.0' },
        { name: 'beta', version: '2.0.0' },
        { name: 'gamma', version: '1.0.0' },
      ],
      [],
    );
    const third = await firstSeen(a.tenantId, web);
    expect(third.map((r) => r.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(third[0]?.first_seen_at.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(third[0]?.first_seen_scan_id).not.toBe(third[2]?.first_seen_scan_id);

    // Tenant B's repository of the same name kept its own row.
    expect((await firstSeen(b.tenantId, other)).map((r) => r.name)).toEqual(['alpha']);
    expect(await firstSeen(b.tenantId, web)).toEqual([]);
  });
});

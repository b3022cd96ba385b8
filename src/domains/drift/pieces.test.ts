import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRegistries } from '../../../test/support/fake-registries/index';
import {
  createTestApp,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { withTenant } from '../../db/tenant-scope';
import { snapshotDriftInPieces } from './pieces';
import { snapshotRepositoryDrift } from './service';

/**
 * The drift snapshot in pieces (docs/operations.md#long-work-in-pieces) stores exactly what the
 * one-transaction computation stores: the same rows (each package and version once, also across
 * pieces) and the same totals.
 */
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeRegistries>>;
let tenant: TestTenant;

beforeAll(async () => {
  fake = await startFakeRegistries();
  t = await createTestApp({ registries: fake.settings() });
  tenant = await t.createTenant('enterprise', 'Pieces');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function stored(repositoryId: string, scanId: string) {
  return withTenant(t.database, tenant.tenantId, async (db) => ({
    rows: await db
      .selectFrom('dependency_drift')
      .selectAll()
      .where('repository_id', '=', repositoryId)
      .where('scan_id', '=', scanId)
      .orderBy('package_id')
      .orderBy('used_version')
      .execute(),
    totals: await db
      .selectFrom('repository_drift')
      .selectAll()
      .where('repository_id', '=', repositoryId)
      .where('scan_id', '=', scanId)
      .executeTakeFirstOrThrow(),
  }));
}

describe('drift snapshot in pieces', () => {
  it('stores the rows and totals of the one-transaction snapshot, pieces of 3 rows', async () => {
    const names = fake.generate('npm', 7, { versions: 6, offset: 70_000 });
    const deps = [
      ...names.map((name, i) => ({ ecosystem: 'npm' as const, name, version: `1.0.${i % 3}` })),
      // The same pin again (another manifest): counted once, though it falls in another piece.
      { ecosystem: 'npm' as const, name: names[0] as string, version: '1.0.0' },
      { ecosystem: 'npm' as const, name: 'never-published-here', version: '1.0.0' },
    ];
    const { repositoryId, scanId } = await storeScan(t, tenant, 'pieces', deps);
    const target = { tenantId: tenant.tenantId, repositoryId, scanId };
    const settings = t.config.packageIntel;
    const now = new Date();
    await withTenant(t.database, tenant.tenantId, (db) =>
      snapshotRepositoryDrift(db, tenant.tenantId, repositoryId, scanId, settings, now),
    );
    const whole = await stored(repositoryId, scanId);
    expect(whole.rows).toHaveLength(8);
    expect(whole.totals.measured_count).toBeGreaterThan(0);
    expect(await snapshotDriftInPieces(t.database, target, settings, now, 3)).toBe(true);
    const pieces = await stored(repositoryId, scanId);
    expect(pieces.rows).toEqual(whole.rows);
    expect(pieces.totals).toEqual(whole.totals);
  });

  it('computes a first snapshot in pieces as the one transaction would', async () => {
    const names = fake.generate('npm', 5, { versions: 6, offset: 71_000 });
    const deps = names.map((name) => ({ ecosystem: 'npm' as const, name, version: '1.0.1' }));
    // Enriched through a first scan, then scanned again without running the package jobs.
    await storeScan(t, tenant, 'first', deps);
    const { repositoryId, scanId } = await storeScan(t, tenant, 'first', deps, new Date(), false);
    const target = { tenantId: tenant.tenantId, repositoryId, scanId };
    const settings = t.config.packageIntel;
    const now = new Date();
    expect(await snapshotDriftInPieces(t.database, target, settings, now, 2)).toBe(true);
    const pieces = await stored(repositoryId, scanId);
    expect(pieces.totals).toMatchObject({ dependency_count: 5, pending_count: 0 });
    await withTenant(t.database, tenant.tenantId, (db) =>
      snapshotRepositoryDrift(db, tenant.tenantId, repositoryId, scanId, settings, now),
    );
    expect(await stored(repositoryId, scanId)).toEqual(pieces);
  });
});

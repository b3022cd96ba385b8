import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeRegistries,
  startFakeRegistries,
} from '../../../test/support/fake-registries/index';
import {
  createTestApp,
  type StoreScanArgs,
  storeScan,
  type TestApp,
  type TestTenant,
  twoTenants,
} from '../../../test/support/scenarios';

/** Drift snapshots per scan, through the package jobs and the drift-history route. */

let t: TestApp;
let fake: FakeRegistries;
let a: TestTenant;
let b: TestTenant;

const scan = (...args: StoreScanArgs) => storeScan(t, ...args);

const get = (tenant: TestTenant, url: string) => t.as(tenant.token, { method: 'GET', url });

beforeAll(async () => {
  fake = await startFakeRegistries();
  t = await createTestApp({ registries: fake.settings() });
  ({ a, b } = await twoTenants(t));
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('drift history', () => {
  it('keeps one snapshot per scan, newest first, with libyear and versions behind', async () => {
    const first = await scan(
      a,
      'history',
      [{ ecosystem: 'npm', name: 'left-pad', version: '1.1.0' }],
      new Date('2026-01-01T00:00:00Z'),
    );
    await scan(
      a,
      'history',
      [{ ecosystem: 'npm', name: 'left-pad', version: '1.3.0' }],
      new Date('2026-02-01T00:00:00Z'),
    );
    const response = await get(a, `/api/v1/repositories/${first.repositoryId}/drift-history`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalReturned).toBe(2);
    expect(body.items.map((i: { scannedAtUtc: string }) => i.scannedAtUtc)).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
    // left-pad 1.1.0 (2016-03-22) vs 1.3.0 (2018-03-24): 2 minor releases, ~2 libyears.
    expect(body.items[1]).toMatchObject({
      minorBehind: 2,
      majorBehind: 0,
      deprecatedCount: 1,
      measuredCount: 1,
    });
    expect(body.items[1].libyearTotal).toBeCloseTo(2.0, 1);
    expect(body.items[0]).toMatchObject({ libyearTotal: 0, minorBehind: 0, outdatedCount: 0 });
    expect(
      (await get(a, `/api/v1/repositories/${first.repositoryId}/drift-history?take=1`)).json()
        .items,
    ).toHaveLength(1);
    expect(
      (await get(b, `/api/v1/repositories/${first.repositoryId}/drift-history`)).statusCode,
    ).toBe(404);
    expect((await get(a, '/api/v1/repositories/not-a-uuid/drift-history')).statusCode).toBe(400);
  });
});

describe('superseded scans', () => {
  it('a scan replaced before its jobs ran leaves no empty snapshot behind', async () => {
    const old = await scan(
      a,
      'racy',
      [{ ecosystem: 'npm', name: 'left-pad', version: '1.0.0' }],
      new Date('2026-03-01T00:00:00Z'),
      false,
    );
    await scan(
      a,
      'racy',
      [{ ecosystem: 'npm', name: 'left-pad', version: '1.3.0' }],
      new Date('2026-03-02T00:00:00Z'),
    );
    const body = (await get(a, `/api/v1/repositories/${old.repositoryId}/drift-history`)).json();
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({
      scannedAtUtc: '2026-03-02T00:00:00.000Z',
      dependencyCount: 1,
    });
  });
});

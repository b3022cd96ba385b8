import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  insertRepository,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';

/**
 * The project's own package (scope self) is stored with a scan but is no dependency
 * (docs/extraction.md): every count of dependencies leaves it out, as the scan's and the
 * repository's dependencyCount do.
 */
describe("counts of dependencies leave out the project's own package", () => {
  let t: TestApp;
  let tenant: TestTenant;
  let repositoryId: string;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant('team');
    repositoryId = await insertRepository(t, tenant.tenantId, 'lib');
    await scanWith(
      t,
      tenant.tenantId,
      repositoryId,
      [
        { name: 'my-lib', version: '1.0.0', scope: 'self' },
        { name: 'left-pad', version: '1.0.0' },
        { name: 'lodash', version: '4.17.20' },
        { ecosystem: 'PyPI', name: 'my-tool', version: '0.1.0', scope: 'self' },
        { ecosystem: 'PyPI', name: 'requests', version: '2.0.0' },
      ],
      'all',
    );
  });
  afterAll(async () => t?.close());

  const get = async (url: string) => {
    const res = await t.as(tenant.token, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  test('the repository, the dashboard, the trends and the usage agree: 3, not 5', async () => {
    expect((await get(`/api/v1/repositories/${repositoryId}`)).dependencyCount).toBe(3);
    const dashboard = await get('/api/v1/dashboards/global');
    expect(dashboard.dependencies).toMatchObject({ total: 3, direct: 3, transitive: 0 });
    expect(dashboard.dependencies.byEcosystem).toEqual([
      { ecosystem: 'npm', total: 2, direct: 2, transitive: 0 },
      { ecosystem: 'PyPI', total: 1, direct: 1, transitive: 0 },
    ]);
    expect(dashboard.changes.dependencies.current).toBe(3);
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const trends = await get(`/api/v1/analytics/trends?fromUtc=${from}&interval=day`);
    expect(trends.points.at(-1).dependencies).toBe(3);
    const usage = await get('/api/v1/tenants/current/usage');
    expect(usage.dependencies).toEqual({ used: 3, limit: null });
  });
});

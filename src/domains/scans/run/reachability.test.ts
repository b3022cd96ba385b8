import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture } from '../../../../test/support/git-fixtures';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertFixtureRepository,
  osvRecord,
  scanRepository,
  type TestApp,
  type TestTenant,
  twoTenants,
} from '../../../../test/support/scenarios';

/** A scan of a real git repository computes import-level reachability; exposures carry it. */

const LOCK = {
  name: 'web',
  version: '1.0.0',
  lockfileVersion: 3,
  packages: {
    '': {
      name: 'web',
      version: '1.0.0',
      dependencies: { express: '4.18.2', moment: '2.29.1' },
      devDependencies: { eslint: '8.0.0' },
    },
    'node_modules/express': { version: '4.18.2', dependencies: { qs: '6.5.2' } },
    'node_modules/eslint': { version: '8.0.0', dev: true, dependencies: { minimatch: '3.0.4' } },
    'node_modules/minimatch': { version: '3.0.4', dev: true },
    'node_modules/qs': { version: '6.5.2' },
    'node_modules/moment': { version: '2.29.1' },
  },
};

const npmRange = (name: string, fixed: string) => ({
  ecosystem: 'npm',
  name,
  ranges: [
    { type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] as Record<string, string>[] },
  ],
});

interface Item {
  packageName: string;
  reachability: string;
  reachabilityEvidence: { file: string; line: number; import: string; chain: string[] } | null;
  reachabilityReason: string | null;
}

describe('scan: import-level reachability on exposures', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let repo: GitFixture;
  let repositoryId: string;
  let scanId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await twoTenants(t));
    repo = createGitRepository({
      'package.json': JSON.stringify(
        { name: 'web', version: '1.0.0', scripts: { lint: 'eslint .' } },
        null,
        2,
      ),
      'package-lock.json': JSON.stringify(LOCK, null, 2),
      'src/server.ts': "import type { Moment } from 'moment';\n\nimport express from 'express';\n",
    });
    await importJsonl(t, [
      osvRecord({ id: 'GHSA-qs00-0000-0001', affected: [npmRange('qs', '6.5.3')] }),
      osvRecord({ id: 'GHSA-mo00-0000-0001', affected: [npmRange('moment', '2.29.4')] }),
      osvRecord({ id: 'GHSA-mm00-0000-0001', affected: [npmRange('minimatch', '3.0.5')] }),
    ]);
    repositoryId = await insertFixtureRepository(t, a.tenantId, 'web', repo);
    scanId = (await scanRepository(t, a.tenantId, repositoryId)).scan.id;
    await t.runJobs();
  }, 180_000);
  afterAll(async () => {
    repo.remove();
    await t.close();
  });

  const list = async (token: string, query: string) => {
    const res = await t.as(token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures?repositoryId=${repositoryId}${query}`,
    });
    return { status: res.statusCode, items: (res.json() as { items?: Item[] }).items ?? [] };
  };

  it('imported through the chain with the first-party file and line; a type-only import is not', async () => {
    const { status, items } = await list(a.token, '');
    expect(status).toBe(200);
    const byName = Object.fromEntries(items.map((i) => [i.packageName, i]));
    expect(byName.qs).toMatchObject({
      reachability: 'imported',
      reachabilityEvidence: {
        file: 'src/server.ts',
        line: 3,
        import: 'express',
        chain: ['express', 'qs'],
      },
      reachabilityReason: null,
    });
    expect(byName.moment).toMatchObject({
      reachability: 'not_imported',
      reachabilityEvidence: null,
    });
    expect(byName.moment?.reachabilityReason).toContain('no JavaScript/TypeScript file imports it');
  });

  it('the scan log counts each state', async () => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/scans/${scanId}/logs`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(
      'reachability: 2 imported, 2 used by tooling, 1 not imported, 1 unknown',
    );
  });

  it('used_by_tooling: a package only a package.json script runs (and its chain), with the script', async () => {
    const { items } = await list(a.token, '&reachability=used_by_tooling');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      packageName: 'minimatch',
      reachability: 'used_by_tooling',
      reachabilityEvidence: {
        file: 'package.json',
        line: 5,
        import: 'eslint .',
        chain: ['eslint', 'minimatch'],
      },
    });
    expect(items[0]?.reachabilityReason).toContain('the package.json script "lint"');
  });

  it('filters by reachability; a bad value is a 400; another tenant sees nothing', async () => {
    expect((await list(a.token, '&reachability=imported')).items.map((i) => i.packageName)).toEqual(
      ['qs'],
    );
    expect(
      (await list(a.token, '&reachability=not_imported')).items.map((i) => i.packageName),
    ).toEqual(['moment']);
    expect((await list(a.token, '&reachability=unknown')).items).toEqual([]);
    expect((await list(a.token, '&reachability=maybe')).status).toBe(400);
    expect((await list(b.token, '')).items).toEqual([]);
  });

  it('policies see it: a condition on reachability fires for the imported package only', async () => {
    const created = await createPolicy(t, a.token, {
      name: 'Imported and vulnerable',
      condition: 'vulnerabilities.items.exists(v, v.reachability == "imported")',
      severity: 'high',
      action: 'warn',
    });
    await t.runJobs();
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/policy-violations?policyId=${created}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const names = (res.json().items as { packageName?: string; package?: { name: string } }[]).map(
      (v) => v.packageName ?? v.package?.name,
    );
    expect(names).toEqual(['qs']);
  });
});

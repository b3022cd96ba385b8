import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture } from '../support/git-fixtures';
import {
  createTestApp,
  importJsonl,
  npmRange,
  osvRecord,
  type TestApp,
  type TestTenant,
} from '../support/scenarios';

/**
 * Issue 14 end to end through the API: a repository scanned from a real git checkout with a
 * vulnerable package, a policy "critical vulnerability with a fix available", the violation it
 * opens, an exception granted on it, then a fix committed and rescanned: resolved.
 */

function lockfile(versions: Record<string, string>): Record<string, string> {
  const packages: Record<string, object> = {
    '': {
      name: 'shop',
      version: '1.0.0',
      dependencies: Object.fromEntries(Object.keys(versions).map((n) => [n, '*'])),
    },
  };
  for (const [name, version] of Object.entries(versions)) {
    packages[`node_modules/${name}`] = {
      version,
      resolved: `https://registry.example.invalid/${name}/-/${name}-${version}.tgz`,
    };
  }
  return {
    'package-lock.json': JSON.stringify(
      { name: 'shop', version: '1.0.0', lockfileVersion: 3, requires: true, packages },
      null,
      2,
    ),
  };
}

describe('policies end to end: scan, violation, exception, fix, resolved', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let repo: GitFixture;
  let repositoryId: string;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.as(tenant.token, { method, url, ...(payload ? { payload } : {}) });
  const scan = async () => {
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    expect(queued.statusCode, queued.body).toBe(202);
    await t.runJobs();
    const done = await call('GET', `/api/v1/scans/${queued.json().scanId}`);
    expect(done.json().state).toBe('completed');
  };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant('team', 'Shop');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-shop-0001-aaaa',
        aliases: ['CVE-2025-30001'],
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [npmRange('cart-lib', '0', '1.2.0')],
      }),
      osvRecord({
        id: 'GHSA-shop-0002-bbbb',
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [npmRange('no-fix-lib', '0')],
      }),
    ]);
    repo = createGitRepository(
      lockfile({ 'cart-lib': '1.0.0', 'no-fix-lib': '3.0.0', 'left-pad': '1.3.0' }),
    );
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo.url }],
    });
    expect(imported.statusCode, imported.body).toBe(200);
    repositoryId = imported.json().items[0].repositoryId;
  });
  afterAll(async () => {
    repo?.remove();
    await t?.close();
  });

  it('opens, excepts and resolves through the API', async () => {
    const created = await call('POST', '/api/v1/policies', {
      name: 'Critical vulnerability with a fix available',
      condition: 'vulnerabilities.items.exists(v, v.severity == "critical" && v.fixAvailable)',
      severity: 'critical',
      action: 'block',
    });
    expect(created.statusCode, created.body).toBe(201);
    const policyId = created.json().policyId;

    await scan();
    const opened = await call('GET', `/api/v1/policy-violations?policyId=${policyId}`);
    expect(opened.json().items).toHaveLength(1);
    const violation = opened.json().items[0];
    expect(violation).toMatchObject({
      packageName: 'cart-lib',
      version: '1.0.0',
      status: 'open',
      action: 'block',
      repositoryId,
    });
    expect(violation.facts.vulnerabilities.ids).toContain('CVE-2025-30001');
    // Only the fact groups the condition read are stored (docs/policies.md#evaluation).
    expect(Object.keys(violation.facts)).toEqual(['vulnerabilities']);

    const exception = await call(
      'POST',
      `/api/v1/policy-violations/${violation.violationId}/exception`,
      {
        reason: 'WAF rule blocks the exploit until the upgrade ships',
        expiresAtUtc: new Date(Date.now() + 14 * 86_400_000).toISOString(),
        scope: 'repository_package',
      },
    );
    expect(exception.statusCode, exception.body).toBe(201);
    const excepted = await call('GET', `/api/v1/policy-violations/${violation.violationId}`);
    expect(excepted.json()).toMatchObject({
      status: 'excepted',
      exceptionId: exception.json().exceptionId,
    });

    // A rescan of the same code keeps it excepted.
    await scan();
    expect(
      (await call('GET', `/api/v1/policy-violations/${violation.violationId}`)).json().status,
    ).toBe('excepted');

    repo.commit(
      lockfile({ 'cart-lib': '1.2.0', 'no-fix-lib': '3.0.0', 'left-pad': '1.3.0' }),
      'upgrade cart-lib',
    );
    await scan();
    const resolved = await call('GET', `/api/v1/policy-violations/${violation.violationId}`);
    expect(resolved.json()).toMatchObject({ status: 'resolved' });
    expect(resolved.json().resolvedAtUtc).not.toBeNull();
    const open = await call('GET', '/api/v1/policy-violations?status=open');
    expect(open.json().items).toEqual([]);
    const summary = await call('GET', `/api/v1/repositories/${repositoryId}/risk-summary`);
    expect(summary.statusCode).toBe(200);
  });
});

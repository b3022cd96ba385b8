import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertRepository,
  maliciousTestRecords,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';

/**
 * A malicious package end to end past the exposure: its own alert kind (never `exposure_opened`),
 * its own policy facts (`malicious.*`, not counted among vulnerabilities) and its own dashboard
 * counts. The MAL- records are the test records in the upstream shape.
 */
const maliciousRecords = maliciousTestRecords();

interface AlertBody {
  kind: string;
  severity: string | null;
  title: string;
  payload: { packageName: string; kind: string; reintroduced?: boolean };
}

describe('malicious packages: alerts, policy facts, dashboard', () => {
  let t: TestApp;
  let a: TestTenant;
  let repo: string;

  const alerts = async () => {
    const res = await t.as(a.token, { method: 'GET', url: '/api/v1/alerts?take=100' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: AlertBody[] }).items;
  };
  const scan = (deps: { name: string; version: string }[]) =>
    scanWith(t, a.tenantId, repo, deps, 'all');

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    repo = await insertRepository(t, a.tenantId, 'web');
    for (const kind of ['malicious_package', 'exposure_opened']) {
      const res = await t.as(a.token, {
        method: 'POST',
        url: '/api/v1/alert-rules',
        payload: { name: kind, kind, dedupeWindowMinutes: 0 },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await createPolicy(t, a.token, {
      name: 'no malicious packages',
      condition: 'malicious.flagged',
      severity: 'critical',
      action: 'block',
    });
    await createPolicy(t, a.token, {
      name: 'any vulnerability',
      condition: 'vulnerabilities.count > 0',
      severity: 'low',
      action: 'warn',
    });
    await t.runJobs();
    await scan([
      { name: 'evil-colors', version: '1.4.44' },
      { name: 'left-pad', version: '1.3.0' },
    ]);
    await importJsonl(t, [
      ...maliciousRecords,
      osvRecord({
        id: 'GHSA-lpad-0002-bbbb',
        databaseSeverity: 'LOW',
        affected: [npmRange('left-pad', '0', '1.4.0')],
      }),
    ]);
    await t.runJobs();
    await t.runJobs();
  });
  afterAll(() => t.close());

  it('raises malicious_package (critical) for the malicious one, exposure_opened only for the flaw', async () => {
    const raised = await alerts();
    expect(raised.map((x) => [x.kind, x.payload.packageName, x.severity]).sort()).toEqual([
      ['exposure_opened', 'left-pad', 'low'],
      ['malicious_package', 'evil-colors', 'critical'],
    ]);
    const malicious = raised.find((x) => x.kind === 'malicious_package');
    expect(malicious?.title).toBe('Malicious package evil-colors@1.4.44 (GHSA-xm4w-9v2c-7q3r)');
    expect(malicious?.payload).toMatchObject({ kind: 'malicious', reintroduced: false });
  });

  it('a malicious version that comes back alerts again, as reintroduced', async () => {
    await scan([{ name: 'left-pad', version: '1.3.0' }]);
    await scan([
      { name: 'evil-colors', version: '1.4.44' },
      { name: 'left-pad', version: '1.3.0' },
    ]);
    await t.runJobs();
    const reintroduced = (await alerts()).filter(
      (x) => x.kind === 'malicious_package' && x.payload.reintroduced,
    );
    expect(reintroduced).toHaveLength(1);
    expect(reintroduced[0]?.title).toMatch(/reintroduced$/);
  });

  it('is the policy fact malicious.flagged, not a vulnerability', async () => {
    const res = await t.as(a.token, { method: 'GET', url: '/api/v1/policy-violations?take=50' });
    expect(res.statusCode, res.body).toBe(200);
    const items = (
      res.json() as {
        items: {
          status: string;
          severity: string;
          packageName: string;
          // The fact groups each condition read (docs/policies.md#evaluation).
          facts: {
            malicious?: { flagged: boolean; ids: string[]; statuses: string[] };
            vulnerabilities?: { count: number };
          };
        }[];
      }
    ).items.filter((v) => v.status === 'open');
    const byName = (name: string) => items.filter((v) => v.packageName === name);
    // One violation each: "any vulnerability" does not fire on the malicious package (it counts
    // none) and "no malicious packages" does not fire on the vulnerable one.
    const [evil] = byName('evil-colors');
    expect(byName('evil-colors')).toHaveLength(1);
    expect(evil?.severity).toBe('critical');
    expect(evil?.facts.malicious?.flagged).toBe(true);
    expect(evil?.facts.malicious?.ids).toContain('MAL-2026-90001');
    expect(evil?.facts.vulnerabilities).toBeUndefined();
    const [pad] = byName('left-pad');
    expect(byName('left-pad')).toHaveLength(1);
    expect(pad?.severity).toBe('low');
    expect(pad?.facts.vulnerabilities?.count).toBe(1);
  });

  it('has its own count on the dashboard, outside the severity counts', async () => {
    const res = await t.as(a.token, { method: 'GET', url: '/api/v1/dashboards/global' });
    expect(res.statusCode, res.body).toBe(200);
    const { exposures } = res.json() as {
      exposures: {
        unresolved: number;
        bySeverity: Record<string, number>;
        malicious: { unresolved: number; repositories: number };
      };
    };
    expect(exposures.malicious).toEqual({ unresolved: 1, repositories: 1 });
    expect(exposures.bySeverity).toMatchObject({ critical: 0, low: 1 });
    expect(exposures.unresolved).toBe(2);
  });
});

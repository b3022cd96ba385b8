import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  importJsonl,
  insertRepository,
  maliciousTestRecords,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { REMATCH } from './jobs';

/** Exposures of the project's own package (scope self) and of Go modules swapped out by replace. */

interface ExposureBody {
  packageName: string;
  version: string | null;
  possiblyAffected: boolean;
  possiblyAffectedReason: string | null;
  canonicalId: string;
}

const goRange = (name: string, fixed: string) => ({
  ecosystem: 'Go',
  name,
  ranges: [
    { type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] as Record<string, string>[] },
  ],
});

describe('exposures: own packages and Go replace', () => {
  let t: TestApp;
  let a: TestTenant;

  const list = async (repositoryId: string) => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures?repositoryId=${repositoryId}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: ExposureBody[] }).items
      .map((e) => [e.packageName, e.version, e.possiblyAffected, e.possiblyAffectedReason])
      .sort();
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    await importJsonl(t, [
      osvRecord({ id: 'GO-2026-0101', affected: [goRange('gopkg.in/yaml.v3', '3.0.1')] }),
      osvRecord({ id: 'GO-2026-0102', affected: [goRange('github.com/vendored/lib', '1.5.0')] }),
      osvRecord({ id: 'GO-2026-0103', affected: [goRange('github.com/acme/yaml', '3.0.3')] }),
      osvRecord({ id: 'GO-2026-0104', affected: [goRange('example.com/mylib', '1.2.0')] }),
    ]);
  });
  afterAll(() => t.close());

  it('a replaced module is possibly affected "replaced by <module>"; its replacement as usual', async () => {
    const repo = await insertRepository(t, a.tenantId, 'go-service');
    const go = { ecosystem: 'Go' as const, file: 'go.mod' };
    await scanWith(t, a.tenantId, repo, [
      { ...go, name: 'github.com/acme/yaml', version: 'v3.0.2' },
      {
        ...go,
        name: 'gopkg.in/yaml.v3',
        version: 'v3.0.0',
        source: { kind: 'replaced', by: 'github.com/acme/yaml', version: 'v3.0.2' },
      },
      {
        ...go,
        name: 'github.com/vendored/lib',
        version: 'v1.4.0',
        source: { kind: 'replaced', by: '../lib', version: null },
      },
    ]);
    expect(await list(repo)).toEqual([
      ['github.com/acme/yaml', 'v3.0.2', false, null],
      ['github.com/vendored/lib', 'v1.4.0', true, 'replaced by ../lib'],
      ['gopkg.in/yaml.v3', 'v3.0.0', true, 'replaced by github.com/acme/yaml'],
    ]);
    // The replaced upstream is not counted as a dependency of its own; the directory copy is.
    const repository = await t.as(a.token, { method: 'GET', url: `/api/v1/repositories/${repo}` });
    expect(repository.json().dependencyCount).toBe(2);
  });

  it('the own package is matched when its version is known, not when it is unknown', async () => {
    const released = await insertRepository(t, a.tenantId, 'mylib-release');
    await scanWith(t, a.tenantId, released, [
      { ecosystem: 'Go', name: 'example.com/mylib', version: 'v1.1.0', scope: 'self' },
    ]);
    expect(await list(released)).toEqual([['example.com/mylib', 'v1.1.0', false, null]]);
    const workingCopy = await insertRepository(t, a.tenantId, 'mylib-head');
    await scanWith(t, a.tenantId, workingCopy, [
      { ecosystem: 'Go', name: 'example.com/mylib', version: null, scope: 'self' },
    ]);
    expect(await list(workingCopy)).toEqual([]);
    const repository = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${released}`,
    });
    expect(repository.json().dependencyCount).toBe(0);
  });
});

/** OSV MAL- records made for the tests in the upstream shape (src/intel/osv/__fixtures__). */
const maliciousRecords = maliciousTestRecords();

describe('exposures: malicious packages', () => {
  let t: TestApp;
  let a: TestTenant;

  const exposures = async (query: string) => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures${query}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (
      res.json() as {
        items: {
          packageName: string;
          version: string | null;
          kind: string;
          severity: string | null;
          possiblyAffected: boolean;
          canonicalId: string;
        }[];
      }
    ).items
      .map((e) => [e.packageName, e.version, e.kind, e.severity, e.possiblyAffected, e.canonicalId])
      .sort();
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
  });
  afterAll(() => t.close());

  it('a MAL- record arriving after the scan flags the package at once: kind malicious, critical', async () => {
    const repo = await insertRepository(t, a.tenantId, 'web');
    await scanWith(t, a.tenantId, repo, [
      { name: 'evil-colors', version: '1.4.44' },
      { name: 'evil-colors', version: '^1.0.0', resolution: 'declared', file: 'package.json' },
      { name: 'left-pad', version: '1.3.0' },
    ]);
    expect(await exposures(`?repositoryId=${repo}`)).toEqual([]);

    const imported = await importJsonl(t, [
      ...maliciousRecords,
      osvRecord({
        id: 'GHSA-lpad-0001-aaaa',
        databaseSeverity: 'LOW',
        affected: [
          {
            ecosystem: 'npm',
            name: 'left-pad',
            ranges: [
              {
                type: 'SEMVER',
                events: [{ introduced: '0' }, { fixed: '1.4.0' }] as Record<string, string>[],
              },
            ],
          },
        ],
      }),
    ]);
    expect(imported.tenantsNotified).toBe(1);
    expect(await t.runJobs()).toContain(REMATCH.name);
    // The record names every version: the declared range is affected too, not possibly.
    expect(await exposures(`?repositoryId=${repo}`)).toEqual([
      ['evil-colors', '1.4.44', 'malicious', 'critical', false, 'GHSA-xm4w-9v2c-7q3r'],
      ['evil-colors', '^1.0.0', 'malicious', 'critical', false, 'GHSA-xm4w-9v2c-7q3r'],
      ['left-pad', '1.3.0', 'vulnerability', 'low', false, 'GHSA-lpad-0001-aaaa'],
    ]);
    expect((await exposures('?kind=Malicious')).map((e) => e[0])).toEqual([
      'evil-colors',
      'evil-colors',
    ]);
    expect((await exposures('?kind=vulnerability')).map((e) => e[0])).toEqual(['left-pad']);
    // The vulnerability itself says what it is.
    const listed = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/vulnerability-exposures?kind=malicious',
    });
    const [first] = (listed.json() as { items: { vulnerabilityId: string }[] }).items;
    const vulnerability = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerabilities/${first?.vulnerabilityId}`,
    });
    expect(vulnerability.json()).toMatchObject({
      kind: 'malicious',
      severity: 'critical',
      severitySource: 'malicious',
    });
    const bad = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/vulnerability-exposures?kind=evil',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a versions list matches only the listed versions', async () => {
    const repo = await insertRepository(t, a.tenantId, 'py');
    await scanWith(t, a.tenantId, repo, [
      { ecosystem: 'PyPI', name: 'reqeusts-toolbelt2', version: '0.1.1' },
      { ecosystem: 'PyPI', name: 'reqeusts-toolbelt2', version: '0.2.0', file: 'other.txt' },
    ]);
    expect(await exposures(`?repositoryId=${repo}`)).toEqual([
      ['reqeusts-toolbelt2', '0.1.1', 'malicious', 'critical', false, 'MAL-2026-90002'],
    ]);
  });
});

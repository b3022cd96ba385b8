import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  importJsonl,
  insertRepository,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  twoTenants,
} from '../../../test/support/scenarios';

interface Item {
  vulnerabilityId: string;
  canonicalId: string;
  aliases: string[];
  severity: string | null;
  ecosystems: string[];
  publishedUtc: string | null;
  withdrawnUtc: string | null;
}

describe('vulnerabilities API', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;

  const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
  const list = async (query = '') => {
    const res = await get(a.token, `/api/v1/vulnerabilities${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Item[]; totalEstimate: number; take: number; skip: number };
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await twoTenants(t));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-vapi-0001-aaaa',
        aliases: ['CVE-2024-30001'],
        published: '2024-05-01T00:00:00Z',
        summary: 'Prototype pollution in merge-deep-ish',
        severity: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected: [
          {
            ecosystem: 'npm',
            name: 'merge-deep-ish',
            ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '3.0.1' }] }],
            versions: ['2.9.0'],
          },
        ],
      }),
      osvRecord({
        id: 'PYSEC-2024-300',
        aliases: ['CVE-2024-30002'],
        published: '2024-02-01T00:00:00Z',
        summary: 'Path traversal in py-archiver',
        databaseSeverity: 'LOW',
        affected: [
          {
            ecosystem: 'PyPI',
            name: 'py-archiver',
            ranges: [
              { type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { last_affected: '1.4' }] },
            ],
          },
        ],
      }),
      osvRecord({
        id: 'RUSTSEC-2023-3003',
        published: '2023-07-01T00:00:00Z',
        withdrawn: '2023-08-01T00:00:00Z',
        summary: 'Withdrawn: not a flaw',
        affected: [
          {
            ecosystem: 'crates.io',
            name: 'not-a-flaw',
            ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }],
          },
        ],
      }),
    ]);
  });
  afterAll(() => t.close());

  it('lists live vulnerabilities, newest published first, with filters', async () => {
    const all = await list();
    expect(all.items.map((i) => i.canonicalId)).toEqual(['CVE-2024-30001', 'CVE-2024-30002']);
    expect(all).toMatchObject({ totalEstimate: 2, take: 50, skip: 0 });
    expect((await list('?severity=Critical')).items.map((i) => i.canonicalId)).toEqual([
      'CVE-2024-30001',
    ]);
    expect((await list('?ecosystem=PyPi')).items.map((i) => i.canonicalId)).toEqual([
      'CVE-2024-30002',
    ]);
    expect((await list('?ecosystem=Cargo')).items).toEqual([]);
    expect((await list('?ecosystem=Cargo&includeWithdrawn=true')).items[0]).toMatchObject({
      canonicalId: 'RUSTSEC-2023-3003',
      ecosystems: ['Cargo'],
    });
    expect((await list('?search=TRAVERSAL')).items.map((i) => i.canonicalId)).toEqual([
      'CVE-2024-30002',
    ]);
    expect((await list('?search=ghsa-vapi')).items.map((i) => i.canonicalId)).toEqual([
      'CVE-2024-30001',
    ]);
    expect((await list('?search=merge-deep')).items).toHaveLength(1);
    expect(
      (await list(`?publishedFromUtc=${encodeURIComponent('2024-03-01T00:00:00Z')}`)).items.map(
        (i) => i.canonicalId,
      ),
    ).toEqual(['CVE-2024-30001']);
    expect(
      (await list(`?publishedToUtc=${encodeURIComponent('2024-03-01T00:00:00Z')}`)).items.map(
        (i) => i.canonicalId,
      ),
    ).toEqual(['CVE-2024-30002']);
    const paged = await list('?take=1&skip=1');
    expect(paged).toMatchObject({ take: 1, skip: 1, totalEstimate: 2 });
    expect(paged.items.map((i) => i.canonicalId)).toEqual(['CVE-2024-30002']);
  });

  it('rejects bad filters with 400', async () => {
    for (const query of [
      '?severity=extreme',
      '?ecosystem=Cobol',
      '?publishedFromUtc=yesterday',
      `?publishedFromUtc=${encodeURIComponent('2024-05-01T00:00:00Z')}&publishedToUtc=${encodeURIComponent('2024-01-01T00:00:00Z')}`,
      '?take=0',
      '?skip=x',
    ]) {
      const res = await get(a.token, `/api/v1/vulnerabilities${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
  });

  it('shows one vulnerability by id or by any identifier, with ranges, fixes and references', async () => {
    const [first] = (await list()).items;
    const byId = await get(a.token, `/api/v1/vulnerabilities/${first?.vulnerabilityId}`);
    expect(byId.statusCode).toBe(200);
    const detail = byId.json();
    expect(detail).toMatchObject({
      canonicalId: 'CVE-2024-30001',
      aliases: ['GHSA-vapi-0001-aaaa'],
      severity: 'critical',
      severityScore: 9.8,
      severitySource: 'cvss_v3',
      details: 'Details of GHSA-vapi-0001-aaaa.',
      fixedVersions: ['3.0.1'],
      references: [
        { type: 'ADVISORY', url: 'https://advisories.example.test/GHSA-vapi-0001-aaaa' },
      ],
    });
    expect(detail.affected[0]).toMatchObject({
      advisoryId: 'GHSA-vapi-0001-aaaa',
      ecosystem: 'npm',
      name: 'merge-deep-ish',
      versions: ['2.9.0'],
      ranges: [
        {
          type: 'SEMVER',
          events: [
            { kind: 'introduced', version: '0' },
            { kind: 'fixed', version: '3.0.1' },
          ],
        },
      ],
    });
    const byAlias = await get(a.token, '/api/v1/vulnerabilities/GHSA-vapi-0001-aaaa');
    expect(byAlias.json().vulnerabilityId).toBe(first?.vulnerabilityId);
    const byCve = await get(b.token, '/api/v1/vulnerabilities/CVE-2024-30001');
    expect(byCve.json().vulnerabilityId).toBe(first?.vulnerabilityId);
    expect((await get(a.token, '/api/v1/vulnerabilities/CVE-1999-0000')).statusCode).toBe(404);
    expect(
      (await get(a.token, '/api/v1/vulnerabilities/01890000-0000-7000-8000-000000000000'))
        .statusCode,
    ).toBe(404);
    expect(
      (await get(a.token, `/api/v1/vulnerabilities/${encodeURIComponent('bad id!')}`)).statusCode,
    ).toBe(400);
  });

  it("lists a package's vulnerabilities and which of the tenant's versions they affect", async () => {
    const repo = await insertRepository(t, a.tenantId, 'front');
    const other = await insertRepository(t, a.tenantId, 'back');
    await scanWith(t, a.tenantId, repo, [{ name: 'merge-deep-ish', version: '2.9.0' }]);
    await scanWith(t, a.tenantId, other, [
      { name: 'merge-deep-ish', version: '3.1.0' },
      { name: 'merge-deep-ish', version: '^2.0.0', resolution: 'declared', file: 'package.json' },
    ]);
    const { rows } = await t.database.pool.query(
      `SELECT id FROM packages WHERE ecosystem = 'npm' AND name = 'merge-deep-ish'`,
    );
    const packageId = rows[0].id as string;
    const res = await get(a.token, `/api/v1/packages/${packageId}/vulnerabilities`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ packageId, ecosystem: 'npm', name: 'merge-deep-ish', total: 1 });
    expect(body.items[0].canonicalId).toBe('CVE-2024-30001');
    expect(body.items[0].affectedVersionsInUse).toEqual(
      expect.arrayContaining([
        { version: '2.9.0', resolution: 'resolved', repositoryCount: 1, status: 'affected' },
        {
          version: '^2.0.0',
          resolution: 'declared',
          repositoryCount: 1,
          status: 'possibly_affected',
        },
      ]),
    );
    expect(body.items[0].affectedVersionsInUse).toHaveLength(2);
    const detail = (
      await get(a.token, `/api/v1/vulnerabilities/${body.items[0].vulnerabilityId}`)
    ).json();
    expect(detail.exposures).toEqual({ total: 2, unresolved: 2, byStatus: { open: 2 } });
    const detailB = (
      await get(b.token, `/api/v1/vulnerabilities/${body.items[0].vulnerabilityId}`)
    ).json();
    expect(detailB.exposures).toEqual({ total: 0, unresolved: 0, byStatus: {} });
    const clean = body.versionsInUse.find((v: { version: string }) => v.version === '3.1.0');
    expect(clean).toMatchObject({ repositoryCount: 1, vulnerabilityIds: [] });

    // Another tenant sees the advisories but none of A's versions.
    const theirs = (await get(b.token, `/api/v1/packages/${packageId}/vulnerabilities`)).json();
    expect(theirs.total).toBe(1);
    expect(theirs.versionsInUse).toEqual([]);
    expect(theirs.items[0].affectedVersionsInUse).toEqual([]);

    expect(
      (await get(a.token, '/api/v1/packages/01890000-0000-7000-8000-000000000000/vulnerabilities'))
        .statusCode,
    ).toBe(404);
    expect((await get(a.token, '/api/v1/packages/nope/vulnerabilities')).statusCode).toBe(400);
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    for (const path of [
      '/api/v1/vulnerabilities',
      '/api/v1/vulnerabilities/{vulnerabilityId}',
      '/api/v1/packages/{packageId}/vulnerabilities',
      '/api/v1/vulnerability-exposures',
      '/api/v1/vulnerability-exposures/{exposureId}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(
      doc.paths['/api/v1/vulnerability-exposures/{exposureId}'].patch.responses['422'],
    ).toBeDefined();
  });
});

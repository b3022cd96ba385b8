import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCraProduct,
  createTestApp,
  importJsonl,
  insertRepository,
  kevCatalogue,
  kevEntry,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  tenantsWithTeam,
} from '../../../../test/support/scenarios';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { parseKevCatalogue } from '../../../intel/kev/catalogue';
import { MATCH_DEPENDENCIES, REMATCH } from '../../exposures/jobs';
import { CRA_DETECT_EXPLOITED } from '../jobs';
import { markExploitationReported } from './exploitation';
import { importKevCatalogue } from './kev';

const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

/** The documented schema of `cra.actively_exploited` (docs/events.md). */
function eventSchema(): object {
  const text = readFileSync(new URL('../../../../docs/events.md', import.meta.url), 'utf8');
  const match = /^## `cra\.actively_exploited`[^\n]*\n[\s\S]*?```json\n([\s\S]*?)\n```/m.exec(text);
  if (!match) throw new Error('docs/events.md has no cra.actively_exploited schema');
  return JSON.parse(match[1] as string);
}

interface FindingBody {
  findingId: string;
  source: string;
  productId: string;
  packageName: string;
  canonicalId: string | null;
  state: string;
  justification: string | null;
  activelyExploited: boolean;
  knownExploited: { cveId: string } | null;
  fixReleased: boolean | null;
  reportedAtUtc: string | null;
}

describe('CRA findings and the known-exploited list', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let team: TestTenant;
  let viewer: string;
  let firmware: string;
  let cloud: string;
  let gateway: string;
  let portal: string;
  const jobs = [MATCH_DEPENDENCIES.name, REMATCH.name, CRA_DETECT_EXPLOITED.name];

  const findings = async (token: string, query = '') => {
    const res = await t.as(token, { method: 'GET', url: `/api/v1/cra/findings${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      items: FindingBody[];
      totalEstimate: number;
      take: number;
      skip: number;
    };
  };
  const byPackage = async (name: string, query = '') =>
    (await findings(a.token, query)).items.filter((f) => f.packageName === name);
  const importKev = (entries: object[], version = '2026.03.02') =>
    importKevCatalogue(t.database, parseKevCatalogue(kevCatalogue(entries, version)), 'test.json');
  const exploitations = () =>
    t.database.system.selectFrom('cra_exploitations').selectAll().orderBy('detected_at').execute();
  const exposureOf = async (name: string) => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/vulnerability-exposures?take=200',
    });
    return res.json().items.find((e: { packageName: string }) => e.packageName === name);
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b, team, token: viewer } = await tenantsWithTeam(t, 'viewer'));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-kev1-0001-aaaa',
        aliases: ['CVE-2026-1111'],
        databaseSeverity: 'CRITICAL',
        affected: [npmRange('kev-pkg', '0', '1.2.0')],
      }),
      osvRecord({
        id: 'GHSA-kev1-0002-bbbb',
        aliases: ['CVE-2026-2222'],
        databaseSeverity: 'MODERATE',
        affected: [npmRange('plain-pkg', '0')],
      }),
      osvRecord({
        id: 'GHSA-kev1-0003-cccc',
        aliases: ['CVE-2026-3333'],
        databaseSeverity: 'HIGH',
        affected: [npmRange('late-pkg', '0', '2.0.0')],
      }),
    ]);
    firmware = await insertRepository(t, a.tenantId, 'firmware');
    cloud = await insertRepository(t, a.tenantId, 'cloud');
    await scanWith(
      t,
      a.tenantId,
      firmware,
      [
        { name: 'kev-pkg', version: '1.0.0' },
        { name: 'plain-pkg', version: '1.0.0' },
      ],
      jobs,
    );
    await scanWith(t, a.tenantId, cloud, [{ name: 'late-pkg', version: '1.0.0' }], jobs);
    gateway = await createCraProduct(t, a.token, {
      name: 'Gateway',
      classification: 'important_class_i',
      category: 'routers_modems_switches',
      repositoryIds: [firmware],
    });
    portal = await createCraProduct(t, a.token, { name: 'Portal', repositoryIds: [cloud] });
  }, 300_000);
  afterAll(() => t?.close());

  it('derives findings from the exposures of the products repositories', async () => {
    const page = await findings(viewer);
    expect(page.totalEstimate).toBe(3);
    const kev = await byPackage('kev-pkg');
    expect(kev).toHaveLength(1);
    expect(kev[0]).toMatchObject({
      source: 'vulnerability',
      productId: gateway,
      canonicalId: 'CVE-2026-1111',
      state: 'open',
      activelyExploited: false,
      fixReleased: true,
    });
    expect((await byPackage('plain-pkg'))[0]).toMatchObject({ fixReleased: false });
    expect((await byPackage('late-pkg'))[0]).toMatchObject({ productId: portal });
  });

  it('a KEV import marks present vulnerabilities actively exploited, once per product and vulnerability', async () => {
    const outboxBefore = await t.database.system
      .selectFrom('job_outbox')
      .select('id')
      .where('job_name', '=', 'event:cra.actively_exploited')
      .execute();
    const first = await importKev([kevEntry('CVE-2026-1111'), kevEntry('CVE-2099-0001')]);
    expect(first).toMatchObject({ entries: 2, added: 2, updated: 0, exploitationsDetected: 1 });
    const events = await t.database.system
      .selectFrom('job_outbox')
      .selectAll()
      .where('job_name', '=', 'event:cra.actively_exploited')
      .execute();
    expect(events.length - outboxBefore.length).toBe(1);
    const event = events.at(-1);
    const validate = addFormats(new Ajv({ strict: false })).compile(eventSchema());
    expect(validate(event?.data), JSON.stringify(validate.errors)).toBe(true);
    expect(event?.tenant_id).toBe(a.tenantId);
    expect(event?.data).toMatchObject({
      tenantId: a.tenantId,
      productId: gateway,
      cveId: 'CVE-2026-1111',
    });

    const again = await importKev([kevEntry('CVE-2026-1111'), kevEntry('CVE-2099-0001')]);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 2, exploitationsDetected: 0 });
    const changed = await importKev(
      [kevEntry('CVE-2026-1111', { knownRansomwareCampaignUse: 'Known' })],
      '2026.03.03',
    );
    expect(changed).toMatchObject({ added: 0, updated: 1, exploitationsDetected: 0 });
    expect(await exploitations()).toHaveLength(1);

    const kev = (await byPackage('kev-pkg'))[0];
    expect(kev).toMatchObject({
      activelyExploited: true,
      knownExploited: { cveId: 'CVE-2026-1111', knownRansomwareCampaignUse: 'Known' },
    });
    expect((await byPackage('plain-pkg'))[0]?.activelyExploited).toBe(false);
  });

  it('an exposure opening against a KEV entry, or a repository linked later, is detected', async () => {
    await importKev([kevEntry('CVE-2026-3333')], '2026.03.04');
    // late-pkg is in the portal: the import found it there.
    expect((await exploitations()).map((x) => x.product_id)).toContain(portal);
    const before = (await exploitations()).length;
    // A new repository of the gateway gets late-pkg: the opened exposure is detected by the job.
    const edge = await insertRepository(t, a.tenantId, 'edge');
    const patched = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/cra/products/${gateway}`,
      payload: { repositoryIds: [firmware, edge] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const ran = await scanWith(t, a.tenantId, edge, [{ name: 'late-pkg', version: '1.5.0' }], jobs);
    expect(ran).toContain(CRA_DETECT_EXPLOITED.name);
    const after = await exploitations();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ product_id: gateway, cve_id: 'CVE-2026-3333' });
    // Linking the cloud repository to the gateway finds nothing new (already recorded).
    await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/cra/products/${gateway}`,
      payload: { repositoryIds: [firmware, edge, cloud] },
    });
    expect(await exploitations()).toHaveLength(before + 1);
  });

  it('follows exposure triage: under assessment, not exploitable with a justification, reported, remediated', async () => {
    const plain = await exposureOf('plain-pkg');
    const moved = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${plain.exposureId}`,
      payload: { status: 'investigating' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await byPackage('plain-pkg'))[0]?.state).toBe('under_assessment');
    await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${plain.exposureId}`,
      payload: {
        status: 'not_affected',
        justification: 'code_not_reachable',
        reason: 'never called',
      },
    });
    expect((await byPackage('plain-pkg'))[0]).toMatchObject({
      state: 'not_exploitable',
      justification: 'code_not_reachable: never called',
    });

    const kev = (await byPackage('kev-pkg'))[0] as FindingBody;
    const vulnerabilityId = (await exposureOf('kev-pkg')).vulnerabilityId as string;
    const marked = await withTenant(t.database, a.tenantId, (db) =>
      markExploitationReported(db, gateway, vulnerabilityId, new Date('2026-03-03T10:00:00Z')),
    );
    expect(marked).toBe(true);
    expect((await byPackage('kev-pkg'))[0]).toMatchObject({
      findingId: kev.findingId,
      state: 'reported',
      reportedAtUtc: '2026-03-03T10:00:00.000Z',
    });

    // kev-pkg upgraded past the fix: the exposure is fixed, the finding remediated.
    await scanWith(
      t,
      a.tenantId,
      firmware,
      [
        { name: 'kev-pkg', version: '1.2.0' },
        { name: 'plain-pkg', version: '1.0.0' },
      ],
      jobs,
    );
    expect((await byPackage('kev-pkg'))[0]?.state).toBe('remediated');
  });

  it('adds the policy violations of the repositories, following their status', async () => {
    const packageId = (await exposureOf('plain-pkg')).packageId as string;
    const violationId = newId();
    await withTenant(t.database, a.tenantId, async (db) => {
      const policyId = newId();
      await db
        .insertInto('policies')
        .values({
          id: policyId,
          name: 'No plain-pkg',
          description: '',
          condition: 'package.name == "plain-pkg"',
          severity: 'high',
          action: 'block',
          enabled: true,
          scope: JSON.stringify({
            repositoryIds: [],
            ecosystems: [],
            businessCriticalities: [],
            lifecycleStatuses: [],
          }),
          version: 1,
        })
        .execute();
      await db
        .insertInto('policy_violations')
        .values({
          id: violationId,
          policy_id: policyId,
          repository_id: firmware,
          package_id: packageId,
          version: '1.0.0',
          ecosystem: 'npm',
          package_name: 'plain-pkg',
          purl: 'pkg:npm/plain-pkg@1.0.0',
          severity: 'high',
          action: 'block',
          status: 'dismissed',
          status_reason: 'vendored copy, patched',
          facts: JSON.stringify({}),
          policy_version: 1,
        })
        .execute();
    });
    const violation = (await byPackage('plain-pkg')).find((f) => f.source === 'policy_violation');
    expect(violation).toMatchObject({
      findingId: violationId,
      state: 'not_exploitable',
      justification: 'dismissed: vendored copy, patched',
      fixReleased: null,
      activelyExploited: false,
    });
  });

  it('filters by state, class and product, pages, and refuses bad values', async () => {
    const all = await findings(a.token);
    const notExploitable = await findings(a.token, '?state=NotExploitable');
    expect(notExploitable.items.length).toBeGreaterThan(0);
    expect(notExploitable.items.every((f) => f.state === 'not_exploitable')).toBe(true);
    const portalOnly = await findings(a.token, `?productId=${portal}`);
    expect(portalOnly.items.every((f) => f.productId === portal)).toBe(true);
    expect(portalOnly.totalEstimate).toBe(1);
    const classI = await findings(a.token, '?class=important_class_i');
    expect(classI.items.every((f) => f.productId === gateway)).toBe(true);
    expect(classI.totalEstimate + portalOnly.totalEstimate).toBe(all.totalEstimate);
    const second = await findings(a.token, '?take=2&skip=2');
    expect(second).toMatchObject({ take: 2, skip: 2, totalEstimate: all.totalEstimate });
    expect(second.items.map((f) => f.findingId)).toEqual(
      all.items.slice(2, 4).map((f) => f.findingId),
    );
    for (const [query, field] of [
      ['?state=closed', 'state'],
      ['?class=important', 'class'],
      ['?productId=nope', 'productId'],
      ['?take=-1', 'take'],
    ]) {
      const res = await t.as(a.token, { method: 'GET', url: `/api/v1/cra/findings${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json().errors), query).toContain(field);
    }
  });

  it('another tenant sees none of them; the plan needs the cra feature', async () => {
    expect((await findings(b.token)).items).toEqual([]);
    expect((await findings(b.token, `?productId=${gateway}`)).items).toEqual([]);
    const res = await t.as(team.token, { method: 'GET', url: '/api/v1/cra/findings' });
    expect(res.statusCode).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCraProduct,
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  tenantsWithTeam,
} from '../../../../test/support/scenarios';

interface Item {
  id: string;
  status: string;
  basis: string;
  evidence: string[];
  note: string | null;
}

describe('CRA Annex I and duties', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let team: TestTenant;
  let member: string;
  let product: string;

  const get = async (token: string, path: string) => t.as(token, { method: 'GET', url: path });
  const items = async (path: string) => {
    const res = await get(a.token, path);
    expect(res.statusCode, res.body).toBe(200);
    return new Map((res.json().items as Item[]).map((i) => [i.id, i]));
  };
  const patch = (token: string, path: string, payload: object) =>
    t.as(token, { method: 'PATCH', url: path, payload });

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b, team, token: member } = await tenantsWithTeam(t, 'member'));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-anx1-0001-aaaa',
        aliases: ['CVE-2026-7777'],
        databaseSeverity: 'CRITICAL',
        affected: [npmRange('crit-pkg', '0', '3.0.0')],
      }),
    ]);
    const repo = await insertRepository(t, a.tenantId, 'device');
    await scanWith(t, a.tenantId, repo, [{ name: 'crit-pkg', version: '2.0.0' }]);
    product = await createCraProduct(t, a.token, {
      repositoryIds: [repo],
      cvdPolicyUrl: 'https://acme.example/cvd',
    });
  }, 300_000);
  afterAll(() => t?.close());

  it('computes what the data shows and leaves the rest not assessed', async () => {
    const annex = await items(`/api/v1/cra/annex-i?productId=${product}`);
    expect(annex.size).toBe(22);
    expect(annex.get('I-2-a')).toMatchObject({ status: 'not_met', basis: 'computed' });
    expect(annex.get('II-5')).toMatchObject({ status: 'met', basis: 'computed' });
    expect(annex.get('II-6')).toMatchObject({ status: 'not_met', basis: 'computed' });
    expect(annex.get('II-1')?.basis).toBe('computed');
    expect(annex.get('II-2')).toMatchObject({ status: 'met', basis: 'computed' });
    expect(annex.get('I-2-b')).toMatchObject({ status: 'not_assessed', basis: 'none' });
    const duties = await items(`/api/v1/cra/duties?productId=${product}`);
    expect(duties.size).toBe(14);
    expect(duties.get('support_period')).toMatchObject({ status: 'not_met' });
    expect(duties.get('known_vulnerabilities_documented')).toMatchObject({ status: 'partly_met' });
    expect(duties.get('risk_assessment')).toMatchObject({ status: 'not_assessed' });
    // Without productId: every product of the tenant.
    await createCraProduct(t, a.token, { name: 'Second' });
    expect((await items('/api/v1/cra/duties')).size).toBe(14);
    expect((await get(a.token, '/api/v1/cra/duties')).json().items).toHaveLength(28);
  });

  it('a person sets the rest with a note; every change is audited', async () => {
    const res = await patch(a.token, '/api/v1/cra/annex-i/I-2-b', {
      productId: product,
      status: 'partly_met',
      note: 'Defaults reviewed; reset pending',
      evidenceUrl: 'https://acme.example/docs/defaults',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'partly_met',
      basis: 'assessed',
      note: 'Defaults reviewed; reset pending',
    });
    expect(
      (await items(`/api/v1/cra/duties?productId=${product}`)).get('risk_assessment')?.status,
    ).toBe('partly_met');
    const duty = await patch(a.token, '/api/v1/cra/duties/conformity', {
      productId: product,
      status: 'met',
      note: 'Module A; declaration signed',
    });
    expect(duty.statusCode, duty.body).toBe(200);
    const audit = await get(a.token, '/api/v1/audit-log?take=200');
    expect(audit.body).toContain('cra_annex_i.assess');
    expect(audit.body).toContain('cra_duty.assess');
  });

  it('refuses computed items (422), blank notes and bad values (400), unknown ids (404)', async () => {
    const body = { productId: product, status: 'met', note: 'x' };
    expect((await patch(a.token, '/api/v1/cra/annex-i/II-5', body)).statusCode).toBe(422);
    expect(
      (await patch(a.token, '/api/v1/cra/annex-i/I-2-b', { ...body, note: '' })).statusCode,
    ).toBe(400);
    expect(
      (await patch(a.token, '/api/v1/cra/annex-i/I-2-b', { ...body, note: '   ' })).statusCode,
    ).toBe(422);
    expect(
      (await patch(a.token, '/api/v1/cra/annex-i/I-2-b', { ...body, status: 'done' })).statusCode,
    ).toBe(400);
    expect((await patch(a.token, '/api/v1/cra/annex-i/I-9', body)).statusCode).toBe(404);
    expect((await patch(a.token, '/api/v1/cra/duties/nope', body)).statusCode).toBe(404);
    expect((await get(a.token, '/api/v1/cra/annex-i?productId=nope')).statusCode).toBe(400);
  });

  it("another tenant's product is a 404; writes need admin; the plan needs cra", async () => {
    expect((await get(b.token, `/api/v1/cra/annex-i?productId=${product}`)).statusCode).toBe(404);
    expect((await get(b.token, `/api/v1/cra/duties?productId=${product}`)).statusCode).toBe(404);
    const body = { productId: product, status: 'met', note: 'x' };
    expect((await patch(b.token, '/api/v1/cra/annex-i/I-2-b', body)).statusCode).toBe(404);
    expect((await patch(member, '/api/v1/cra/annex-i/I-2-b', body)).statusCode).toBe(403);
    expect((await get(member, `/api/v1/cra/annex-i?productId=${product}`)).statusCode).toBe(200);
    expect((await get(team.token, '/api/v1/cra/duties')).statusCode).toBe(403);
  });
});

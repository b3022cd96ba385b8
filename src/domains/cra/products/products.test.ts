import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCraProduct,
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
  tokenWithRole,
  twoTenants,
} from '../../../../test/support/scenarios';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { loadProduct } from './products';

describe('CRA products', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let team: TestTenant;
  let repoA: string;
  let repoB: string;
  const tokens: Record<string, string> = {};

  const products = (token: string, method: 'GET' | 'POST', payload?: object, query = '') =>
    t.as(token, { method, url: `/api/v1/cra/products${query}`, payload });
  const product = (
    token: string,
    method: 'GET' | 'PATCH' | 'DELETE',
    id: string,
    payload?: object,
  ) => t.as(token, { method, url: `/api/v1/cra/products/${id}`, payload });
  const firewall = {
    name: 'Edge firewall',
    versionLine: '5.x',
    manufacturer: 'Acme GmbH',
    supportPeriodEnd: '2031-12-31',
    classification: 'important_class_ii',
    category: 'firewalls_ids_ips',
    securityContact: 'security@acme.example',
    cvdPolicyUrl: 'https://acme.example/security/cvd',
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await twoTenants(t));
    team = await t.createTenant('team', 'Team');
    repoA = await insertRepository(t, a.tenantId, 'firmware');
    repoB = await insertRepository(t, b.tenantId, 'other');
    for (const role of ['viewer', 'member', 'admin'])
      tokens[role] = await tokenWithRole(t, a, role);
  }, 240_000);
  afterAll(() => t?.close());

  it('creates (201), reads, lists, changes and deletes a product; the route follows the class', async () => {
    const created = await products(tokens.admin as string, 'POST', {
      ...firewall,
      repositoryIds: [repoA],
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      ...firewall,
      categoryTitle: 'Firewalls, intrusion detection and intrusion prevention systems',
      repositoryIds: [repoA],
      conformityRoute: { thirdPartyRequired: true, legalBasis: 'Art. 32(3)' },
    });
    expect((await product(tokens.viewer as string, 'GET', body.productId)).json()).toEqual(body);
    const listed = await products(tokens.viewer as string, 'GET');
    expect(listed.json()).toMatchObject({ totalEstimate: 1, take: 50, skip: 0 });

    // Back to the default class: the category goes, the route becomes Module A.
    const patched = await product(tokens.admin as string, 'PATCH', body.productId, {
      classification: 'default',
      repositoryIds: [],
      supportPeriodEnd: null,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      name: 'Edge firewall',
      classification: 'default',
      category: null,
      categoryTitle: null,
      supportPeriodEnd: null,
      repositoryIds: [],
      conformityRoute: { thirdPartyRequired: false, legalBasis: 'Art. 32(1)' },
    });
    const classI = await product(tokens.admin as string, 'PATCH', body.productId, {
      classification: 'important_class_i',
      category: 'operating_systems',
    });
    expect(classI.json().conformityRoute.legalBasis).toBe('Art. 32(2)');

    expect((await product(tokens.admin as string, 'DELETE', body.productId)).statusCode).toBe(204);
    expect((await product(a.token, 'GET', body.productId)).statusCode).toBe(404);
    expect((await product(a.token, 'DELETE', body.productId)).statusCode).toBe(404);

    const audit = await t.as(a.token, { method: 'GET', url: '/api/v1/audit-log?take=200' });
    for (const action of ['cra_product.create', 'cra_product.update', 'cra_product.delete']) {
      expect(audit.body).toContain(action);
    }
  });

  it('checks every field (400 keyed by field, nothing stored)', async () => {
    const before = (await products(a.token, 'GET')).json().totalEstimate;
    const cases: [object, string][] = [
      [{ ...firewall, category: null }, 'category'],
      [{ ...firewall, category: 'operating_systems' }, 'category'],
      [{ ...firewall, classification: 'default' }, 'category'],
      [{ ...firewall, classification: 'important' }, 'classification'],
      [{ ...firewall, supportPeriodEnd: '31.12.2031' }, 'supportPeriodEnd'],
      [{ ...firewall, securityContact: 'call us' }, 'securityContact'],
      [{ ...firewall, cvdPolicyUrl: 'ftp://acme.example/cvd' }, 'cvdPolicyUrl'],
      [{ ...firewall, cvdPolicyUrl: 'not a url' }, 'cvdPolicyUrl'],
      [{ ...firewall, name: '   ' }, 'name'],
      [{ ...firewall, name: '' }, 'name'],
      [{ ...firewall, repositoryIds: [repoB] }, 'repositoryIds'],
      [{ ...firewall, repositoryIds: ['nope'] }, 'repositoryIds/0'],
      [{ ...firewall, repositoryIds: [repoA, repoA] }, 'repositoryIds'],
      [{ ...firewall, extra: true }, ''],
      [{ name: 'only a name' }, ''],
    ];
    for (const [payload, field] of cases) {
      const res = await products(a.token, 'POST', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (field)
        expect(Object.keys(res.json().errors ?? {}).join(' '), JSON.stringify(payload)).toContain(
          field.split('/')[0],
        );
    }
    expect((await products(a.token, 'GET')).json().totalEstimate).toBe(before);
    const bad = await products(a.token, 'GET', undefined, '?class=supercritical');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('class');
    expect((await products(a.token, 'GET', undefined, '?take=0')).statusCode).toBe(400);
  });

  it('filters by class (PascalCase accepted) and pages with take and skip', async () => {
    const ids = [
      await createCraProduct(t, a.token, { name: 'P1' }),
      await createCraProduct(t, a.token, { name: 'P2' }),
      await createCraProduct(t, a.token, {
        name: 'P3',
        classification: 'critical',
        category: 'smartcards_secure_elements',
      }),
    ];
    const critical = await products(a.token, 'GET', undefined, '?class=Critical');
    expect(critical.json().items.map((p: { productId: string }) => p.productId)).toEqual([ids[2]]);
    const page = await products(a.token, 'GET', undefined, '?class=default&take=1&skip=1');
    expect(page.json()).toMatchObject({ take: 1, skip: 1, totalEstimate: 2 });
    expect(page.json().items.map((p: { productId: string }) => p.productId)).toEqual([ids[0]]);
  });

  it('writes need admin, reads any member; the plan needs the cra feature', async () => {
    const id = await createCraProduct(t, a.token);
    for (const role of ['viewer', 'member']) {
      const token = tokens[role] as string;
      expect((await products(token, 'POST', firewall)).statusCode).toBe(403);
      expect((await product(token, 'PATCH', id, { name: 'x' })).statusCode).toBe(403);
      expect((await product(token, 'DELETE', id)).statusCode).toBe(403);
      expect((await product(token, 'GET', id)).statusCode).toBe(200);
    }
    expect((await products(team.token, 'GET')).statusCode).toBe(403);
    expect((await products(team.token, 'POST', firewall)).statusCode).toBe(403);
  });

  it("another tenant's product is a 404 on every route and to loadProduct", async () => {
    const id = await createCraProduct(t, a.token);
    expect((await product(b.token, 'GET', id)).statusCode).toBe(404);
    expect((await product(b.token, 'PATCH', id, { name: 'taken' })).statusCode).toBe(404);
    expect((await product(b.token, 'DELETE', id)).statusCode).toBe(404);
    expect((await product(b.token, 'GET', newId())).statusCode).toBe(404);
    expect((await product(b.token, 'GET', 'not-a-uuid')).statusCode).toBe(400);
    await expect(withTenant(t.database, b.tenantId, (db) => loadProduct(db, id))).rejects.toThrow(
      /not found/,
    );
    const own = await withTenant(t.database, a.tenantId, (db) => loadProduct(db, id));
    expect(own).toMatchObject({ productId: id, name: 'Gateway', classification: 'default' });
    expect((await product(a.token, 'GET', id)).json().name).toBe('Gateway');
  });
});

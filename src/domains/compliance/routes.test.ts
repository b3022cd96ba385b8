import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCraProduct, tokenWithRole } from '../../../test/support/cra';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { GENERATE_ARCHIVE } from './archives';

let t: TestApp;
let tenant: TestTenant;
let other: TestTenant;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant('enterprise', 'Acme');
  other = await t.createTenant('enterprise', 'Other');
  for (const role of ['viewer', 'member', 'admin'])
    tokens[role] = await tokenWithRole(t, tenant, role);
  tokens.owner = tenant.token;
});
afterAll(() => t.close());

const evidenceUrl = (control: string, query: string) =>
  `/api/v1/compliance/controls/${control}/evidence${query}`;
const Q1 = '?periodStart=2026-01-01&periodEnd=2026-03-31';

describe('controls', () => {
  it('lists SOC 2, ISO 27001 and every CRA Annex I Part II item to a viewer', async () => {
    const res = await t.as(tokens.viewer as string, {
      method: 'GET',
      url: '/api/v1/compliance/controls',
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().items.map((c: { controlId: string }) => c.controlId);
    expect(ids).toEqual([
      'soc2-cc7.1',
      'soc2-cc8.1',
      'iso27001-a.8.8',
      'iso27001-a.8.28',
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `cra-ii-${n}`),
    ]);
    const cc71 = res.json().items[0];
    expect(cc71).toMatchObject({
      framework: 'SOC 2',
      reference: 'CC7.1',
      evidencePath: '/api/v1/compliance/controls/soc2-cc7.1/evidence',
    });
  });

  it('is gated by the compliance_evidence feature: business, team and free plans get 403', async () => {
    for (const plan of ['business', 'team', 'free'] as const) {
      const gated = await t.createTenant(plan, `Gated ${plan}`);
      for (const url of [
        '/api/v1/compliance/controls',
        evidenceUrl('soc2-cc7.1', Q1),
        '/api/v1/compliance/settings',
        '/api/v1/compliance/evidence-archives',
      ]) {
        const res = await t.as(gated.token, { method: 'GET', url });
        expect(res.statusCode, `${plan} ${url}`).toBe(403);
      }
      const post = await t.as(gated.token, {
        method: 'POST',
        url: '/api/v1/compliance/evidence-archives',
        payload: { periodStart: '2026-01-01', periodEnd: '2026-01-31' },
      });
      expect(post.statusCode).toBe(403);
    }
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/compliance/controls' });
    expect(res.statusCode).toBe(401);
  });
});

describe('evidence of a control', () => {
  it('is for admins and owners (it quotes the audit log): viewer and member get 403', async () => {
    for (const [role, status] of [
      ['viewer', 403],
      ['member', 403],
      ['admin', 200],
      ['owner', 200],
    ] as const) {
      const res = await t.as(tokens[role] as string, {
        method: 'GET',
        url: evidenceUrl('soc2-cc7.1', Q1),
      });
      expect(res.statusCode, `${role}: ${res.body}`).toBe(status);
    }
  });

  it('answers 404 for an unknown control and finds a known one case-insensitively', async () => {
    const unknown = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('soc2-cc9.9', Q1),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    const upper = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('ISO27001-A.8.8', Q1),
    });
    expect(upper.statusCode).toBe(200);
    expect(upper.json().control.controlId).toBe('iso27001-a.8.8');
  });

  it.each([
    ['no period at all', '', ['periodStart', 'periodEnd']],
    ['no end', '?periodStart=2026-01-01', ['periodEnd']],
    ['no start', '?periodEnd=2026-01-31', ['periodStart']],
    ['an empty start', '?periodStart=&periodEnd=2026-01-31', ['periodStart']],
    ['a month 13', '?periodStart=2026-13-01&periodEnd=2026-12-31', ['periodStart']],
    ['30 February', '?periodStart=2026-02-01&periodEnd=2026-02-30', ['periodEnd']],
    ['words', '?periodStart=yesterday&periodEnd=today', ['periodStart', 'periodEnd']],
    [
      'a non-UTC offset',
      '?periodStart=2026-01-01T00:00:00%2B02:00&periodEnd=2026-01-31',
      ['periodStart'],
    ],
    ['a reversed period', '?periodStart=2026-03-01&periodEnd=2026-01-31', ['periodEnd']],
    [
      'an empty period',
      '?periodStart=2026-03-01T00:00:00Z&periodEnd=2026-03-01T00:00:00Z',
      ['periodEnd'],
    ],
    ['more than a year', '?periodStart=2025-01-01&periodEnd=2026-01-01', ['periodEnd']],
    [
      'a year and a second',
      '?periodStart=2025-01-01T00:00:00Z&periodEnd=2026-01-01T00:00:01Z',
      ['periodEnd'],
    ],
  ])('answers 400 for %s, naming the field', async (_name, query, fields) => {
    const res = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('soc2-cc7.1', query),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual([...fields].sort());
  });

  it('accepts exactly one year, dates or date-times', async () => {
    for (const query of [
      '?periodStart=2025-01-01&periodEnd=2025-12-31',
      '?periodStart=2025-01-01T00:00:00Z&periodEnd=2026-01-01T00:00:00Z',
      '?periodStart=2024-02-29T00:00:00.000Z&periodEnd=2025-03-01T00:00:00Z',
    ]) {
      const res = await t.as(tokens.admin as string, {
        method: 'GET',
        url: evidenceUrl('cra-ii-1', query),
      });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    }
    const dates = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('cra-ii-1', Q1),
    });
    expect(dates.json()).toMatchObject({
      periodStartUtc: '2026-01-01T00:00:00.000Z',
      periodEndUtc: '2026-04-01T00:00:00.000Z',
    });
  });

  it('says plainly what is missing for a tenant with no history', async () => {
    const res = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('soc2-cc7.1', Q1),
    });
    const body = res.json();
    expect(body.result).toBe('not_assessed');
    expect(body.testStatus).toBe('insufficient_evidence');
    expect(body.gaps).toContain('no active repository in the period');
    for (const item of body.evidence) expect(item.sha256).toMatch(/^[0-9a-f]{64}$/);
    const cra = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('cra-ii-5', Q1),
    });
    expect(cra.json().gaps).toContain('no CRA product recorded, so no product can show this item');
  });
});

describe('remediation targets', () => {
  it('starts from the documented defaults; admins replace them, audited; viewers read', async () => {
    const before = await t.as(tokens.viewer as string, {
      method: 'GET',
      url: '/api/v1/compliance/settings',
    });
    expect(before.json()).toMatchObject({
      remediationTargetDays: { critical: 7, high: 30, medium: 90, low: 180 },
      source: 'default',
    });
    const payload = { remediationTargetDays: { critical: 3, high: 14, medium: 60, low: 120 } };
    const member = await t.as(tokens.member as string, {
      method: 'PUT',
      url: '/api/v1/compliance/settings',
      payload,
    });
    expect(member.statusCode).toBe(403);
    const put = await t.as(tokens.admin as string, {
      method: 'PUT',
      url: '/api/v1/compliance/settings',
      payload,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ ...payload, source: 'tenant' });
    const after = await t.as(tokens.viewer as string, {
      method: 'GET',
      url: '/api/v1/compliance/settings',
    });
    expect(after.json().remediationTargetDays).toEqual(payload.remediationTargetDays);
    const elsewhere = await t.as(other.token, {
      method: 'GET',
      url: '/api/v1/compliance/settings',
    });
    expect(elsewhere.json().source).toBe('default');
    const audit = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=compliance_settings.update',
    });
    expect(audit.json().items.map((e: { statusCode: number }) => e.statusCode)).toContain(200);
    expect(
      audit.json().items.filter((e: { statusCode: number }) => e.statusCode === 200),
    ).toHaveLength(1);
  });

  it.each([
    { remediationTargetDays: { critical: 0, high: 14, medium: 60, low: 120 } },
    { remediationTargetDays: { critical: 3, high: 14, medium: 60 } },
    { remediationTargetDays: { critical: 3.5, high: 14, medium: 60, low: 120 } },
    { remediationTargetDays: { critical: 3, high: 14, medium: 60, low: 120, info: 1 } },
    {},
  ])('refuses a malformed body with 400 and keeps the stored targets: %j', async (payload) => {
    const res = await t.as(tokens.admin as string, {
      method: 'PUT',
      url: '/api/v1/compliance/settings',
      payload,
    });
    expect(res.statusCode).toBe(400);
    const after = await t.as(tokens.viewer as string, {
      method: 'GET',
      url: '/api/v1/compliance/settings',
    });
    expect(after.json().remediationTargetDays.critical).toBe(3);
  });
});

describe('evidence archives', () => {
  const post = (token: string, payload: object) =>
    t.as(token, { method: 'POST', url: '/api/v1/compliance/evidence-archives', payload });

  it('are requested (202, a job) and downloaded by admins only', async () => {
    expect(
      (await post(tokens.member as string, { periodStart: '2026-01-01', periodEnd: '2026-01-31' }))
        .statusCode,
    ).toBe(403);
    const res = await post(tokens.admin as string, {
      periodStart: '2026-01-01',
      periodEnd: '2026-01-31',
    });
    expect(res.statusCode, res.body).toBe(202);
    const archive = res.json();
    expect(archive).toMatchObject({
      state: 'queued',
      downloadPath: null,
      periodEndUtc: '2026-02-01T00:00:00.000Z',
    });
    expect(res.headers.location).toBe(`/api/v1/compliance/evidence-archives/${archive.archiveId}`);
    const early = await t.as(tokens.admin as string, {
      method: 'GET',
      url: `${res.headers.location}/download`,
    });
    expect(early.statusCode).toBe(409);
    expect(await t.runJobs()).toContain(GENERATE_ARCHIVE.name);
    for (const role of ['viewer', 'member']) {
      for (const suffix of ['', '/download']) {
        const denied = await t.as(tokens[role] as string, {
          method: 'GET',
          url: `${res.headers.location}${suffix}`,
        });
        expect(denied.statusCode).toBe(403);
      }
    }
    const status = await t.as(tokens.admin as string, {
      method: 'GET',
      url: res.headers.location as string,
    });
    expect(status.json()).toMatchObject({
      state: 'ready',
      downloadPath: `${res.headers.location}/download`,
    });
    const zip = await t.as(tokens.admin as string, {
      method: 'GET',
      url: `${res.headers.location}/download`,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const audited = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=compliance_archive.download',
    });
    expect(audited.json().items).toContainEqual(
      expect.objectContaining({ resourceId: archive.archiveId, statusCode: 200 }),
    );
    const list = await t.as(tokens.admin as string, {
      method: 'GET',
      url: '/api/v1/compliance/evidence-archives',
    });
    expect(list.json()).toMatchObject({
      totalEstimate: 1,
      items: [{ archiveId: archive.archiveId }],
    });
  });

  it("gives another tenant's archive ids 404", async () => {
    const res = await post(tokens.admin as string, {
      periodStart: '2026-02-01',
      periodEnd: '2026-02-28',
    });
    const id = res.json().archiveId;
    await t.runJobs();
    for (const suffix of ['', '/download']) {
      const theirs = await t.as(other.token, {
        method: 'GET',
        url: `/api/v1/compliance/evidence-archives/${id}${suffix}`,
      });
      expect(theirs.statusCode).toBe(404);
    }
    const list = await t.as(other.token, {
      method: 'GET',
      url: '/api/v1/compliance/evidence-archives',
    });
    expect(list.json().items).toEqual([]);
    const unknown = await t.as(tokens.admin as string, {
      method: 'GET',
      url: '/api/v1/compliance/evidence-archives/0190f5a0-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.as(tokens.admin as string, {
      method: 'GET',
      url: '/api/v1/compliance/evidence-archives/nope',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('refuses a bad period with 400 and queues nothing', async () => {
    const before = await t.as(tokens.admin as string, {
      method: 'GET',
      url: '/api/v1/compliance/evidence-archives',
    });
    for (const payload of [
      {},
      { periodStart: '2026-03-01', periodEnd: '2026-01-01' },
      { periodStart: '2024-01-01', periodEnd: '2026-01-01' },
      { periodStart: '2026-01-01', periodEnd: 'soon' },
      { periodStart: '2026-01-01', periodEnd: '2026-01-31', extra: true },
    ]) {
      const res = await post(tokens.admin as string, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const after = await t.as(tokens.admin as string, {
      method: 'GET',
      url: '/api/v1/compliance/evidence-archives',
    });
    expect(after.json().totalEstimate).toBe(before.json().totalEstimate);
  });

  it('are signed with a public key anyone can fetch as PEM', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/compliance/signing-key' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-pem-file');
    expect(res.body).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/compliance/signing-key' });
    expect(again.body).toBe(res.body);
    expect(again.headers['x-signing-key-id']).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('CRA Annex I Part II controls', () => {
  it("carry the CRA module's status of the item per product", async () => {
    const productId = await createCraProduct(t, tenant.token, {
      cvdPolicyUrl: 'https://acme.example/security/cvd',
    });
    const cvd = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('cra-ii-5', Q1),
    });
    const item = cvd.json().evidence.find((i: { kind: string }) => i.kind === 'cra_annex_i');
    expect(item).toMatchObject({
      status: 'passing',
      figures: { products: 1, met: 1, partly_met: 0, not_met: 0, not_assessed: 0 },
      records: [
        {
          type: 'cra_annex_i_item',
          id: productId,
          path: `/api/v1/cra/annex-i?productId=${productId}`,
          note: 'met (computed): CVD policy published at https://acme.example/security/cvd',
        },
      ],
    });
    const disclosure = await t.as(tokens.admin as string, {
      method: 'GET',
      url: evidenceUrl('cra-ii-4', Q1),
    });
    expect(disclosure.json().gaps).toContain(
      `II-4 of product ${productId} is not assessed (nobody recorded an assessment)`,
    );
  });
});

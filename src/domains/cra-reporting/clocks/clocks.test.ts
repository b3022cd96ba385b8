import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCraProduct,
  createTestApp,
  importantProduct,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  tenantsWithTeam,
} from '../../../../test/support/scenarios';
import { jobDefinitions } from '../../../background-jobs';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { emitEvent } from '../../events';
import { START_CLOCKS, SWEEP_CLOCKS } from '../jobs';

const HOUR = 3_600_000;

interface ClockBody {
  clockId: string;
  kind: string;
  trigger: string;
  state: string;
  dueAtUtc: string;
  startedAtUtc: string;
  overdue: boolean;
  submission: { reference: string } | null;
}

const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

/** The pending `cra.clock_due` events satisfy the schema in docs/events.md; `count` of them. */
async function checkDocumentedEvents(t: TestApp, count: number): Promise<void> {
  const text = readFileSync(new URL('../../../../docs/events.md', import.meta.url), 'utf8');
  const match = /^## `cra\.clock_due`[^\n]*\n[\s\S]*?```json\n([\s\S]*?)\n```/m.exec(text);
  expect(match, 'docs/events.md documents cra.clock_due').not.toBeNull();
  const validate = addFormats(new Ajv({ allErrors: true, strict: true })).compile(
    JSON.parse(match?.[1] as string),
  );
  const rows = await t.database.system
    .selectFrom('job_outbox')
    .select('data')
    .where('job_name', '=', 'event:cra.clock_due')
    .execute();
  expect(rows).toHaveLength(count);
  for (const { data } of rows) {
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  }
}

describe('CRA Article 14 clocks and incidents', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let team: TestTenant;
  let viewer: string;
  let productA: string;
  let productB: string;
  let vulnerabilityId: string;
  let exposureId: string;

  const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
  const post = (token: string, url: string, payload: object) =>
    t.as(token, { method: 'POST', url, payload });
  const productClocks = async (productId: string) => {
    const res = await get(a.token, `/api/v1/cra/products/${productId}/clocks`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as ClockBody[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b, team, token: viewer } = await tenantsWithTeam(t, 'viewer'));
    const repositoryId = await insertRepository(t, a.tenantId, 'clocks');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-clk0-0001',
        aliases: ['CVE-2026-0101'],
        databaseSeverity: 'CRITICAL',
        affected: [npmRange('clock-pkg', '0', '9.0.0')],
      }),
    ]);
    await scanWith(t, a.tenantId, repositoryId, [{ name: 'clock-pkg', version: '1.0.0' }]);
    const exposure = await t.database.system
      .selectFrom('vulnerability_exposures')
      .select(['id', 'vulnerability_id'])
      .where('repository_id', '=', repositoryId)
      .executeTakeFirstOrThrow();
    vulnerabilityId = exposure.vulnerability_id;
    exposureId = exposure.id;
    productA = await createCraProduct(t, a.token, importantProduct([repositoryId]));
    productB = await createCraProduct(t, b.token, { name: 'Other' });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it('starts the early warning and notification clocks from cra.actively_exploited, once', async () => {
    const detectedAt = new Date(Date.now() - 2 * HOUR).toISOString();
    for (let i = 0; i < 2; i++) {
      await withTenant(t.database, a.tenantId, (db) =>
        emitEvent(db, 'cra.actively_exploited', {
          tenantId: a.tenantId,
          data: {
            tenantId: a.tenantId,
            productId: productA,
            vulnerabilityId,
            exposureId,
            detectedAt,
            cveId: 'CVE-2026-0101',
          },
        }),
      );
      expect(await t.runJobs()).toContain(START_CLOCKS.name);
    }
    const clocks = await productClocks(productA);
    expect(clocks.map((c) => [c.kind, c.trigger, c.state])).toEqual([
      ['early_warning', 'vulnerability', 'running'],
      ['notification', 'vulnerability', 'running'],
    ]);
    expect(Date.parse(clocks[0]?.dueAtUtc ?? '') - Date.parse(detectedAt)).toBe(24 * HOUR);
    expect(Date.parse(clocks[1]?.dueAtUtc ?? '') - Date.parse(detectedAt)).toBe(72 * HOUR);
  });

  it('lists what falls due within the hours asked for', async () => {
    const due = async (query: string) => {
      const res = await get(viewer, `/api/v1/cra/clocks/due${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as ClockBody[]).map((c) => c.kind);
    };
    expect(await due('')).toEqual(['early_warning']);
    expect(await due('?withinHours=72')).toEqual(['early_warning', 'notification']);
    expect(await due('?withinHours=1')).toEqual([]);
    expect((await get(b.token, '/api/v1/cra/clocks/due?withinHours=100')).json().items).toEqual([]);
    for (const bad of ['-1', 'abc', '1.5', '9000']) {
      const res = await get(a.token, `/api/v1/cra/clocks/due?withinHours=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors).toHaveProperty('withinHours');
    }
  });

  it('records a submission: met on time, 409 twice, 404 for another tenant, 403 for a viewer', async () => {
    const [early] = await productClocks(productA);
    const url = `/api/v1/cra/clocks/${early?.clockId}/submission`;
    expect((await post(viewer, url, { reference: 'ENISA-1' })).statusCode).toBe(403);
    expect((await post(b.token, url, { reference: 'ENISA-1' })).statusCode).toBe(404);
    expect((await get(b.token, `/api/v1/cra/clocks/${early?.clockId}`)).statusCode).toBe(404);
    const future = new Date(Date.now() + 2 * HOUR).toISOString();
    const bad = await post(a.token, url, { reference: 'ENISA-1', submittedAtUtc: future });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('submittedAtUtc');
    const res = await post(a.token, url, { reference: 'ENISA-1', note: 'early warning sent' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().clock).toMatchObject({ state: 'met', submission: { reference: 'ENISA-1' } });
    expect((await post(a.token, url, { reference: 'again' })).statusCode).toBe(409);
    const exploitation = await t.database.system
      .selectFrom('cra_exploitations')
      .select('reported_at')
      .where('product_id', '=', productA)
      .executeTakeFirst();
    // Written by the CRA domain's detection; absent here (the event was emitted by hand).
    expect(exploitation).toBeUndefined();
  });

  it('starts the 14-day final report when a corrective measure is available', async () => {
    const url = `/api/v1/cra/products/${productA}/corrective-measures`;
    const availableAtUtc = new Date(Date.now() - HOUR).toISOString();
    expect((await post(viewer, url, { vulnerabilityId, note: 'fixed in 2.4.1' })).statusCode).toBe(
      403,
    );
    expect(
      (
        await post(b.token, `/api/v1/cra/products/${productA}/corrective-measures`, {
          vulnerabilityId,
          note: 'x',
        })
      ).statusCode,
    ).toBe(404);
    const unknown = await post(a.token, url, { vulnerabilityId: newId(), note: 'x' });
    expect(unknown.statusCode).toBe(409);
    const res = await post(a.token, url, {
      vulnerabilityId,
      note: 'fixed in 2.4.1',
      availableAtUtc,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'final_report', startNote: 'fixed in 2.4.1' });
    expect(Date.parse(res.json().dueAtUtc) - Date.parse(availableAtUtc)).toBe(14 * 24 * HOUR);
    expect((await post(a.token, url, { vulnerabilityId, note: 'again' })).statusCode).toBe(409);
    expect((await post(a.token, url, { vulnerabilityId, note: '' })).statusCode).toBe(400);
  });

  it('records a severe incident whose notification starts a one-month final report', async () => {
    const awareAtUtc = '2026-01-31T10:00:00.000Z';
    const payload = {
      productId: productA,
      title: 'Signing key exposed',
      severeBecause: ['malicious_code', 'data_or_functions'],
      awareAtUtc,
    };
    expect((await post(viewer, '/api/v1/cra/incidents', payload)).statusCode).toBe(403);
    expect((await post(b.token, '/api/v1/cra/incidents', payload)).statusCode).toBe(404);
    const invalid = await post(a.token, '/api/v1/cra/incidents', {
      ...payload,
      severeBecause: ['boring'],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toBeDefined();
    const res = await post(a.token, '/api/v1/cra/incidents', payload);
    expect(res.statusCode, res.body).toBe(201);
    const incident = res.json();
    expect(incident.severeBecause).toEqual(['data_or_functions', 'malicious_code']);
    expect(incident.clocks.map((c: ClockBody) => [c.kind, c.dueAtUtc])).toEqual([
      ['early_warning', '2026-02-01T10:00:00.000Z'],
      ['notification', '2026-02-03T10:00:00.000Z'],
    ]);
    const notification = incident.clocks[1] as ClockBody;
    const late = await post(a.token, `/api/v1/cra/clocks/${notification.clockId}/submission`, {
      reference: 'CSIRT-77',
      submittedAtUtc: '2026-01-31T20:00:00.000Z',
    });
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().clock.state).toBe('met');
    expect(
      late.json().startedClocks.map((c: ClockBody) => [c.kind, c.startedAtUtc, c.dueAtUtc]),
    ).toEqual([['final_report', '2026-01-31T20:00:00.000Z', '2026-02-28T20:00:00.000Z']]);
    const one = await get(viewer, `/api/v1/cra/incidents/${incident.incidentId}`);
    expect(one.json().clocks).toHaveLength(3);
    expect((await get(b.token, `/api/v1/cra/incidents/${incident.incidentId}`)).statusCode).toBe(
      404,
    );
    const list = await get(a.token, `/api/v1/cra/incidents?productId=${productA}`);
    expect(list.json().items.map((i: { incidentId: string }) => i.incidentId)).toEqual([
      incident.incidentId,
    ]);
    expect((await get(b.token, '/api/v1/cra/incidents')).json().items).toEqual([]);
  });

  it('marks missed clocks in the sweep and raises cra_clock_due alerts', async () => {
    const rule = await post(a.token, '/api/v1/alert-rules', { name: 'cra', kind: 'cra_clock_due' });
    expect(rule.statusCode, rule.body).toBe(201);
    const sweep = jobDefinitions(t.jobDeps).find((d) => d.name === SWEEP_CLOCKS.name);
    const run = () =>
      sweep?.handle({ data: {}, tenantId: null, correlationId: null, version: 1 } as never);
    await run();
    // The incident's early warning and its final report (due February 2026) are missed.
    await checkDocumentedEvents(t, 2);
    await t.runJobs();
    // The incident's early warning (2026) is missed; the vulnerability notification is not due.
    let clocks = await productClocks(productA);
    const byKind = (kind: string, trigger: string) =>
      clocks.find((c) => c.kind === kind && c.trigger === trigger) as ClockBody;
    expect(byKind('early_warning', 'incident').state).toBe('missed');
    expect(byKind('notification', 'vulnerability').state).toBe('running');
    // The vulnerability notification comes within its warning window (a quarter of its span before due).
    await sql`UPDATE cra_clocks SET due_at = now() + interval '30 minutes'
      WHERE id = ${byKind('notification', 'vulnerability').clockId}::uuid`.execute(
      t.database.system,
    );
    await run();
    await checkDocumentedEvents(t, 1);
    await t.runJobs();
    await run();
    await checkDocumentedEvents(t, 0);
    await t.runJobs();
    clocks = await productClocks(productA);
    expect(byKind('notification', 'vulnerability').state).toBe('running');
    const alerts = await get(a.token, '/api/v1/alerts?kind=cra_clock_due');
    const titles = (alerts.json().items as { title: string; severity: string }[]).map((x) => [
      x.severity,
      x.title,
    ]);
    expect(titles).toContainEqual([
      'critical',
      expect.stringMatching(/^CRA early warning for Gateway missed/),
    ]);
    expect(
      titles.filter(([, title]) => /CRA notification for Gateway due at/.test(title as string)),
    ).toHaveLength(1);
    // A late submission is recorded, the clock stays missed.
    const missed = byKind('early_warning', 'incident');
    const res = await post(a.token, `/api/v1/cra/clocks/${missed.clockId}/submission`, {
      reference: 'late',
    });
    expect(res.json().clock).toMatchObject({ state: 'missed', submission: { reference: 'late' } });
  });

  it('answers 403 without the cra plan feature and 404 for another tenant product', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/cra/clocks/due'],
      ['GET', `/api/v1/cra/products/${productA}/clocks`],
      ['GET', '/api/v1/cra/incidents'],
      ['POST', '/api/v1/cra/incidents'],
      ['POST', `/api/v1/cra/clocks/${newId()}/submission`],
      ['POST', `/api/v1/cra/products/${productA}/corrective-measures`],
    ] as const) {
      const res = await t.as(team.token, {
        method,
        url,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode, url).toBe(403);
    }
    expect((await get(b.token, `/api/v1/cra/products/${productA}/clocks`)).statusCode).toBe(404);
    expect((await get(b.token, `/api/v1/cra/products/${productB}/clocks`)).json().items).toEqual(
      [],
    );
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/eventually';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';
import { importPath } from '../../intel/advisory-store/import';
import { startStatusEvaluator } from './jobs';
import { evaluateComponents, HYSTERESIS, nextHeld } from './measurement/components';
import { createResponseWindow } from './measurement/response-window';

const OPERATOR_TOKEN = 'operator-token-for-status-tests';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

describe('hysteresis', () => {
  it('needs agreeing evaluations in a row to get worse, more to recover', () => {
    let held = nextHeld(undefined, 'operational');
    expect(held.state).toBe('operational');
    held = nextHeld(held, 'degraded');
    expect(held.state).toBe('operational');
    held = nextHeld(held, 'operational');
    expect(held).toEqual({ state: 'operational', pendingState: null, pendingCount: 0 });
    for (let i = 0; i < HYSTERESIS.worse; i++) held = nextHeld(held, 'outage');
    expect(held.state).toBe('outage');
    for (let i = 0; i < HYSTERESIS.better - 1; i++) held = nextHeld(held, 'operational');
    expect(held.state).toBe('outage');
    held = nextHeld(held, 'operational');
    expect(held.state).toBe('operational');
  });

  it('counts server errors of the last five minutes only', () => {
    const window = createResponseWindow();
    const start = 1_000_000_000;
    for (let i = 0; i < 10; i++) window.record(500, start);
    window.record(200, start + 1000);
    expect(window.read(start + 2000)).toEqual({ total: 11, serverErrors: 10 });
    expect(window.read(start + 6 * 60_000)).toEqual({ total: 0, serverErrors: 0 });
  });
});

describe('status surface', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  const setOsvAge = async (hours: number) => {
    await sql`DELETE FROM osv_feed_state`.execute(t.database.system);
    await sql`INSERT INTO osv_feed_state (url, last_checked_at, last_changed_at, last_status)
      VALUES ('https://osv.example/all.zip', now() - make_interval(hours => ${hours}),
              now() - make_interval(hours => ${hours}), 'imported')`.execute(t.database.system);
  };
  const component = async (id: string) => {
    const response = await t.app.inject({ method: 'GET', url: '/status/components' });
    expect(response.statusCode).toBe(200);
    return response.json().items.find((item: { componentId: string }) => item.componentId === id);
  };

  it('answers the public status with every component and no token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/status/public' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.components.map((c: { componentId: string }) => c.componentId)).toEqual([
      'api',
      'database',
      'job-workers',
      'vulnerability-data',
      'registry-metadata',
      'source-control-ingest',
    ]);
    expect(
      body.components.find((c: { componentId: string }) => c.componentId === 'vulnerability-data')
        .state,
    ).toBe('unknown');
    expect(
      body.components.find((c: { componentId: string }) => c.componentId === 'database').state,
    ).toBe('operational');
    // The rate limit: /api/v1/status/* is exempt, /status/* counts against the caller's IP.
    expect(response.headers['ratelimit-limit']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/status/incidents' });
    expect(page.headers['ratelimit-limit']).toBeDefined();
  });

  it('turns vulnerability data degraded when the last OSV sync is old, after hysteresis', async () => {
    await setOsvAge(1);
    const window = createResponseWindow();
    await evaluateComponents(t.database, window, { force: true });
    expect((await component('vulnerability-data')).state).toBe('operational');

    await setOsvAge(30);
    await evaluateComponents(t.database, window, { force: true });
    const once = await component('vulnerability-data');
    expect(once.state).toBe('operational');
    // measuredState is the measurement itself; state waits for the next evaluation to agree.
    expect(once.measuredState).toBe('degraded');
    expect(once.detail).toContain('30 h');
    await evaluateComponents(t.database, window, { force: true });
    expect((await component('vulnerability-data')).state).toBe('degraded');
    const overall = await t.app.inject({ method: 'GET', url: '/api/v1/status/public' });
    expect(overall.json().status).toBe('degraded');

    await setOsvAge(1);
    for (let i = 0; i < HYSTERESIS.better; i++) {
      await evaluateComponents(t.database, window, { force: true });
    }
    expect((await component('vulnerability-data')).state).toBe('operational');
  });

  it('lets the operator override a component, and only the operator', async () => {
    const url = '/api/v1/status/components/database/override';
    const body = { state: 'maintenance', reason: 'Upgrading PostgreSQL' };
    expect((await t.app.inject({ method: 'PUT', url, payload: body })).statusCode).toBe(401);
    const asTenant = await t.as(tenant.token, { method: 'PUT', url, payload: body });
    expect(asTenant.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'PUT',
      url,
      headers: operator,
      payload: { state: 'broken', reason: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/status/components/nope/override',
      headers: operator,
      payload: body,
    });
    expect(unknown.statusCode).toBe(400);

    expect(
      (await t.app.inject({ method: 'PUT', url, headers: operator, payload: body })).statusCode,
    ).toBe(204);
    const overridden = await component('database');
    expect(overridden).toMatchObject({
      state: 'maintenance',
      measuredState: 'operational',
      overridden: true,
      overrideReason: 'Upgrading PostgreSQL',
    });
    expect((await t.app.inject({ method: 'DELETE', url, headers: operator })).statusCode).toBe(204);
    expect((await component('database')).state).toBe('operational');
  });

  it('keeps incidents with their updates, managed by the operator', async () => {
    const create = (headers: Record<string, string>, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/status/incidents',
        headers,
        payload: payload as object,
      });
    const incident = {
      title: 'Slow scans',
      impact: 'minor',
      components: ['job-workers'],
      body: 'Looking into it.',
    };
    expect((await create({}, incident)).statusCode).toBe(401);
    expect((await create({ authorization: `Bearer ${tenant.token}` }, incident)).statusCode).toBe(
      401,
    );
    const invalid = await create(operator, { ...incident, title: '', impact: 'huge' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toBeDefined();
    const badComponent = await create(operator, { ...incident, components: ['kitchen'] });
    expect(badComponent.statusCode).toBe(400);

    const created = await create(operator, incident);
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const update = (incidentId: string, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/status/incidents/${incidentId}/updates`,
        headers: operator,
        payload: payload as object,
      });
    expect((await update(id, { status: 'resolved', body: 'Fixed.' })).statusCode).toBe(201);
    expect(
      (await update('0190a8e0-0000-7000-8000-000000000000', { status: 'resolved', body: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await update(id, { status: 'done', body: 'x' })).statusCode).toBe(400);

    const list = await t.app.inject({ method: 'GET', url: '/status/incidents' });
    expect(list.statusCode).toBe(200);
    const [found] = list.json().items;
    expect(found).toMatchObject({
      incidentId: id,
      title: 'Slow scans',
      status: 'resolved',
      components: ['job-workers'],
    });
    expect(found.resolvedAtUtc).not.toBeNull();
    expect(found.updates.map((u: { body: string }) => u.body)).toEqual([
      'Fixed.',
      'Looking into it.',
    ]);
  });

  it('folds open incidents into the overall state by their impact', async () => {
    const publicStatus = async () => (await t.app.inject({ url: '/api/v1/status/public' })).json();
    const before = await publicStatus();
    expect(before.status).toBe('operational');
    const open = async (impact: string) => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/status/incidents',
        headers: operator,
        payload: { title: `A ${impact} one`, impact, components: ['api'], body: 'Declared.' },
      });
      expect(created.statusCode).toBe(201);
      return created.json().id as string;
    };
    const resolve = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/status/incidents/${id}/updates`,
        headers: operator,
        payload: { status: 'resolved', body: 'Over.' },
      });
    const minor = await open('minor');
    expect(await publicStatus()).toMatchObject({ status: 'degraded', openIncidents: 1 });
    const critical = await open('critical');
    const during = await publicStatus();
    expect(during).toMatchObject({ status: 'outage', description: 'Some systems are down' });
    const page = (await t.app.inject({ url: '/status' })).body;
    expect(page).toContain('Some systems are down');
    expect(page).not.toContain('All systems operational');
    await resolve(critical);
    expect((await publicStatus()).status).toBe('degraded');
    await resolve(minor);
    expect(await publicStatus()).toMatchObject({ status: 'operational', openIncidents: 0 });
  });

  it('publishes changelog entries newest first', async () => {
    const post = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/status/changelog',
        headers: operator,
        payload: payload as object,
      });
    expect(
      (
        await post({
          kind: 'release',
          title: 'Driftwatch 1.4',
          version: '1.4.0',
          publishedAtUtc: '2026-11-01T10:00:00Z',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await post({ kind: 'deprecation', title: 'The v0 tokens go', body: 'On 2027-01-01.' }))
        .statusCode,
    ).toBe(201);
    expect((await post({ kind: 'rumour', title: 'x' })).statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: '/status/changelog' });
    expect(
      list.json().items.map((e: { kind: string; title: string }) => [e.kind, e.title]),
    ).toEqual([
      ['deprecation', 'The v0 tokens go'],
      ['release', 'Driftwatch 1.4'],
    ]);
    expect(list.json().items[1]).toMatchObject({
      version: '1.4.0',
      publishedAtUtc: '2026-11-01T10:00:00.000Z',
    });
  });

  it('publishes a changelog entry dated in the future when its time comes', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/status/changelog',
      headers: operator,
      payload: { kind: 'release', title: 'Driftwatch 2.0', publishedAtUtc: tomorrow },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const titles = async () =>
      (await t.app.inject({ url: '/status/changelog' }))
        .json()
        .items.map((entry: { title: string }) => entry.title);
    expect(await titles()).not.toContain('Driftwatch 2.0');
    const feed = (await t.app.inject({ url: '/status/feed.atom' })).body;
    expect(feed).not.toContain('Driftwatch 2.0');
    const updated = /<feed[\s\S]*?<updated>([^<]+)<\/updated>/.exec(feed)?.[1] ?? '';
    expect(Date.parse(updated)).toBeLessThanOrEqual(Date.now());
    expect((await t.app.inject({ url: '/status' })).body).not.toContain('Driftwatch 2.0');

    // Its time comes (moved into the past rather than waiting a day).
    await sql`UPDATE status_changelog SET published_at = now() - interval '1 second'
      WHERE id = ${id}`.execute(t.database.system);
    expect(await titles()).toContain('Driftwatch 2.0');
    expect((await t.app.inject({ url: '/status/feed.atom' })).body).toContain('Driftwatch 2.0');
  });
});

describe('the status evaluator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  });
  afterAll(async () => t?.close());

  it('measures on its schedule and tells subscribers of an outage nobody read', async () => {
    // A confirmed e-mail subscriber (the link from the outbox: no SMTP here) and a webhook one.
    await t.app.inject({
      method: 'POST',
      url: '/status/subscribe',
      payload: { email: 'watcher@example.com' },
    });
    const confirmation = await t.database.system
      .selectFrom('status_email_outbox')
      .select('body')
      .where('recipient', '=', 'watcher@example.com')
      .executeTakeFirstOrThrow();
    const link = /\/status\/subscribe\/confirm\?token=[A-Za-z0-9_-]+/.exec(confirmation.body)?.[0];
    expect((await t.app.inject({ url: link ?? '' })).statusCode).toBe(200);
    const hookId = '0190a8e0-0000-7000-8000-00000000beef';
    await t.database.system
      .insertInto('status_webhook_subscriptions')
      .values({
        id: hookId,
        url: 'https://hooks.example/status',
        secret_sealed: t.secretBox.seal('whsec_dGVzdA=='),
        unsubscribe_token_hash: Buffer.alloc(32, 7),
      })
      .execute();

    // The API answers nothing but server errors; no one reads a status route.
    const window = createResponseWindow();
    const evaluator = startStatusEvaluator({
      database: t.database,
      responseWindow: window,
      subscriptions: { config: t.config, secretBox: t.secretBox },
      log: () => {},
      intervalMs: 40,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < 30; i++) window.record(500, Date.now());
      const mailed = await eventually(
        () =>
          t.database.system
            .selectFrom('status_email_outbox')
            .select('subject')
            .where('recipient', '=', 'watcher@example.com')
            .where('subject', '=', '[Driftwatch status] API: outage')
            .execute(),
        { what: 'the outage mail', until: (rows) => rows.length > 0 },
      );
      expect(mailed).toHaveLength(1);
    } finally {
      await evaluator.stop();
    }
    const delivery = await t.database.system
      .selectFrom('outbound_deliveries')
      .select(['event_type', 'payload'])
      .where('target_id', '=', hookId)
      .where('event_type', '=', 'status.component.changed')
      .executeTakeFirstOrThrow();
    expect(delivery.payload).toMatchObject({ componentId: 'api', state: 'outage' });
    const api = (await t.app.inject({ url: '/status/components' }))
      .json()
      .items.find((item: { componentId: string }) => item.componentId === 'api');
    expect(api).toMatchObject({ state: 'outage', measuredState: 'outage' });
  });
});

describe('source-control ingest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  });
  afterAll(async () => t?.close());

  /** A tenant (a demo one when asked) with finished scans: `failed` of them failed by `cause`. */
  const tenantWithScans = async (
    scans: { completed: number; failed: number; cause: 'input' | 'service' | null },
    demo = false,
  ) => {
    const tenant = await t.createTenant();
    if (demo) {
      await sql`UPDATE tenants SET is_demo = true WHERE id = ${tenant.tenantId}`.execute(
        t.database.system,
      );
    }
    const repositoryId = newId();
    await sql`INSERT INTO repositories (tenant_id, id, provider, name, full_name, clone_url)
      VALUES (${tenant.tenantId}, ${repositoryId}, 'file', 'r', 'r', 'file:///gone')`.execute(
      t.database.system,
    );
    const rows = [
      ...Array.from({ length: scans.completed }, () => ['completed', null, null] as const),
      ...Array.from(
        { length: scans.failed },
        () => ['failed', 'the repository could not be reached', scans.cause] as const,
      ),
    ];
    for (const [state, error, cause] of rows) {
      await sql`INSERT INTO scans (tenant_id, id, repository_id, state, trigger, finished_at,
          error, failure_cause)
        VALUES (${tenant.tenantId}, ${newId()}, ${repositoryId}, ${state}, 'manual', now(),
          ${error}, ${cause})`.execute(t.database.system);
    }
    return tenant;
  };
  const ingest = async () => {
    const window = createResponseWindow();
    for (let i = 0; i < HYSTERESIS.worse; i++) {
      await evaluateComponents(t.database, window, { force: true });
    }
    const items = (await t.app.inject({ url: '/status/components' })).json().items;
    return items.find(
      (item: { componentId: string }) => item.componentId === 'source-control-ingest',
    );
  };
  const clearScans = () => sql`DELETE FROM scans`.execute(t.database.system);

  it("does not count failures of tenants' own repositories, nor let one tenant move it", async () => {
    // Nine scans of deleted repositories among fourteen (the 62 %): the tenant's input.
    await tenantWithScans({ completed: 5, failed: 9, cause: 'input' });
    expect((await ingest()).state).toBe('operational');
    // One tenant whose scans fail for the service's reasons: still not the page's to move.
    await tenantWithScans({ completed: 0, failed: 9, cause: 'service' });
    const one = await ingest();
    expect(one.state).toBe('operational');
    expect(one.measuredState).toBe('operational');
    // Nor demo tenants, whoever makes them.
    await tenantWithScans({ completed: 0, failed: 9, cause: 'service' }, true);
    await tenantWithScans({ completed: 0, failed: 9, cause: null }, true);
    expect((await ingest()).state).toBe('operational');
    await clearScans();
  });

  it('turns to outage when the service fails several tenants, weighing each the same', async () => {
    await tenantWithScans({ completed: 0, failed: 2, cause: 'service' });
    await tenantWithScans({ completed: 0, failed: 1, cause: 'service' });
    // A busy healthy tenant does not dilute the others: each weighs a third.
    await tenantWithScans({ completed: 40, failed: 0, cause: null });
    const outage = await ingest();
    expect(outage.state).toBe('outage');
    expect(outage.detail).toContain('67 %');
    // No counts of tenants' scans in public.
    expect(outage.detail).not.toMatch(/\b(3|43) /);
    await clearScans();
  });
});

describe('vulnerability data imported from files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  });
  afterAll(async () => t?.close());

  it('is measured by its newest advisory once any is imported, with no feed sync', async () => {
    const vulnerability = async () => {
      await evaluateComponents(t.database, createResponseWindow(), { force: true });
      return (await t.app.inject({ url: '/status/components' }))
        .json()
        .items.find((item: { componentId: string }) => item.componentId === 'vulnerability-data');
    };
    expect((await vulnerability()).state).toBe('unknown');
    const folder = mkdtempSync(join(tmpdir(), 'status-osv-'));
    const modified = new Date(Date.now() - 2 * 3600_000).toISOString();
    writeFileSync(
      join(folder, 'GHSA-stat-us00-0001.json'),
      JSON.stringify({
        schema_version: '1.6.0',
        id: 'GHSA-stat-us00-0001',
        modified,
        published: modified,
        summary: 'A test advisory',
        affected: [
          {
            package: { ecosystem: 'npm', name: 'status-test-package' },
            ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }],
          },
        ],
      }),
    );
    try {
      const summary = await importPath(t.database, folder, async () => 0);
      expect(summary.added).toBe(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const imported = await vulnerability();
    expect(imported.state).toBe('operational');
    expect(imported.detail).toBe('the vulnerability data is 2 h old');
  });
});

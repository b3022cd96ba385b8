import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeScm } from '../../../test/support/fake-scm';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
} from '../../../test/support/scenarios';
import { tokenWithRole } from '../../../test/support/workspace';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import {
  advanceOnboarding,
  ONBOARDING_STEPS,
  type OnboardingStep,
  onboardingState,
} from './state-machine';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('onboarding state machine', () => {
  const facts = (done: OnboardingStep[], skipped: OnboardingStep[] = []) => ({
    done: new Set(done),
    skipped: new Set(skipped),
  });

  test('the current step is the first neither done nor skipped; from it alone one may advance', () => {
    for (const [index, current] of ONBOARDING_STEPS.entries()) {
      const passed = ONBOARDING_STEPS.slice(0, index);
      const state = onboardingState(facts(passed));
      expect(state.currentStep).toBe(current);
      for (const step of ONBOARDING_STEPS) {
        const result = advanceOnboarding(facts(passed), step);
        expect(result.ok).toBe(step === current);
      }
    }
    const all = onboardingState(facts([...ONBOARDING_STEPS]));
    expect(all.currentStep).toBe('completed');
    expect(advanceOnboarding(facts([...ONBOARDING_STEPS]), 'configure_alerts')).toEqual({
      ok: false,
      currentStep: 'completed',
    });
  });

  test('a later step done early stays done; skipped and done steps are both passed', () => {
    const state = onboardingState(facts(['first_scan'], ['connect_source_control']));
    expect(state.currentStep).toBe('import_repositories');
    expect(state.steps.map((s) => s.status)).toEqual([
      'skipped',
      'current',
      'done',
      'pending',
      'pending',
      'pending',
    ]);
  });
});

const onboarding = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/onboarding' });
const advance = (token: string, payload: unknown) =>
  t.as(token, { method: 'POST', url: '/api/v1/onboarding/advance', payload: payload as object });

describe('GET /api/v1/onboarding and POST /api/v1/onboarding/advance', () => {
  test('steps complete themselves from stored state; advance skips only the current step', async () => {
    const tenant = await t.createTenant('team');
    const other = await t.createTenant('team');
    const fresh = (await onboarding(tenant.token)).json();
    expect(fresh.currentStep).toBe('connect_source_control');
    expect(fresh.completed).toBe(false);
    expect(fresh.updatedAtUtc).toBeNull();

    const early = await advance(tenant.token, { step: 'import_repositories' });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors.step).toBeDefined();

    const skipped = await advance(tenant.token, { step: 'connect_source_control' });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json().currentStep).toBe('import_repositories');
    expect(skipped.json().steps[0]).toEqual({ step: 'connect_source_control', status: 'skipped' });

    // Importing a repository and scanning it complete the next two steps by themselves.
    const repositoryId = await insertRepository(t, tenant.tenantId, 'web');
    expect((await onboarding(tenant.token)).json().currentStep).toBe('first_scan');
    await withTenant(t.database, tenant.tenantId, (db) =>
      db
        .insertInto('scans')
        .values({
          id: newId(),
          repository_id: repositoryId,
          state: 'completed',
          trigger: 'manual',
          counts_by_ecosystem: JSON.stringify({}),
        })
        .execute(),
    );
    expect((await onboarding(tenant.token)).json().currentStep).toBe('review_findings');

    // Triaging a finding completes the review.
    await importJsonl(t, [
      osvRecord({ id: 'GHSA-onb1-0000-0001', affected: [npmRange('left-pad', '0', '1.3.0')] }),
    ]);
    await scanWith(t, tenant.tenantId, repositoryId, [{ name: 'left-pad', version: '1.0.0' }]);
    const exposures = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/vulnerability-exposures',
    });
    const exposureId = exposures.json().items[0].exposureId;
    const triage = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposureId}`,
      payload: { status: 'investigating' },
    });
    expect(triage.statusCode, triage.body).toBe(200);
    expect((await onboarding(tenant.token)).json().currentStep).toBe('configure_policies');

    // Another tenant's progress is its own.
    expect((await onboarding(other.token)).json().currentStep).toBe('connect_source_control');
  });

  test('making a source-control connection completes the first step by itself', async () => {
    const fake = await startFakeScm();
    fake.b.addUser('glpat-onboarding', { id: 7, username: 'jdoe', name: 'J', projects: [] });
    const app = await createTestApp({ sources: fake.sourcesConfig() }, { database: t.database });
    try {
      const tenant = await app.createTenant('team');
      const other = await app.createTenant('team');
      const get = (token: string) => app.as(token, { method: 'GET', url: '/api/v1/onboarding' });
      expect((await get(tenant.token)).json().currentStep).toBe('connect_source_control');
      const created = await app.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/source-control/connections',
        payload: { provider: 'scm-b', name: 'B', credentials: { token: 'glpat-onboarding' } },
      });
      expect(created.statusCode, created.body).toBe(201);
      const progress = (await get(tenant.token)).json();
      // Done, not skipped: nobody advanced past it.
      expect(progress.steps[0]).toEqual({ step: 'connect_source_control', status: 'done' });
      expect(progress.currentStep).toBe('import_repositories');
      expect((await get(other.token)).json().currentStep).toBe('connect_source_control');
    } finally {
      // The database is the suite's: close only this app.
      await app.app.close();
      await fake.close();
    }
  });

  test('policy and alert-rule steps complete when those tables hold a row of the tenant', async () => {
    const tenant = await t.createTenant('team');
    const other = await t.createTenant('team');
    for (const step of ONBOARDING_STEPS.slice(0, 4)) {
      expect((await advance(tenant.token, { step })).statusCode).toBe(200);
      expect((await advance(other.token, { step })).statusCode).toBe(200);
    }
    expect((await onboarding(tenant.token)).json().currentStep).toBe('configure_policies');
    await createPolicy(t, tenant.token, {
      name: 'Critical with a fix',
      condition: 'vulnerabilities.items.exists(v, v.severity == "critical" && v.fixAvailable)',
      severity: 'critical',
      action: 'block',
    });
    const progress = (await onboarding(tenant.token)).json();
    expect(progress.currentStep).toBe('configure_alerts');
    expect(progress.steps[4]).toEqual({ step: 'configure_policies', status: 'done' });
    // Another tenant without a policy still has the step open.
    expect((await onboarding(other.token)).json().currentStep).toBe('configure_policies');

    const rule = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/alert-rules',
      payload: { name: 'critical', kind: 'exposure_opened', filters: { minSeverity: 'critical' } },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const done = (await onboarding(tenant.token)).json();
    expect(done.currentStep).toBe('completed');
    expect(done.completed).toBe(true);
    const again = await advance(tenant.token, { step: 'configure_alerts' });
    expect(again.statusCode).toBe(422);
  });

  test('malformed bodies are 400 and change nothing; viewers cannot advance', async () => {
    const tenant = await t.createTenant('team');
    for (const payload of [
      {},
      { step: 5 },
      { step: 'nope' },
      { step: '' },
      { step: 'first_scan', extra: 1 },
    ]) {
      const res = await advance(tenant.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors).toBeDefined();
    }
    const raw = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/onboarding/advance',
      headers: { 'content-type': 'application/json' },
      payload: '{"step":',
    });
    expect(raw.statusCode).toBe(400);
    expect((await onboarding(tenant.token)).json().currentStep).toBe('connect_source_control');
    const viewer = await tokenWithRole(t, tenant, 'viewer');
    expect((await onboarding(viewer)).statusCode).toBe(200);
    expect((await advance(viewer, { step: 'connect_source_control' })).statusCode).toBe(403);
    const member = await tokenWithRole(t, tenant, 'member');
    expect((await advance(member, { step: 'connect_source_control' })).statusCode).toBe(403);
  });
});

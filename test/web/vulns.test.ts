import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_SUITE,
  browserTestsUnavailable,
  openHarness,
  type ScreenStep,
  type UiHarness,
  WEB_DIST,
  walkScreen,
} from '../support/browser';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../support/scenarios';

/**
 * The vulnerability and policy screens end to end (issue 31): exposures, vulnerabilities,
 * triage rules with VEX, policies, violations and exceptions. Every action is read back
 * through the API afterwards, so a screen that only looks right fails.
 */

interface Seeded {
  exposureId: string;
  vulnerabilityId: string;
  policyId: string;
  violationId: string;
}
const ids: Seeded = { exposureId: '', vulnerabilityId: '', policyId: '', violationId: '' };

const table = (name: string) => (page: Page) => page.getByRole('table', { name }).waitFor();
const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name }).waitFor();

const SCREENS: ScreenStep[] = [
  {
    name: 'exposures',
    path: '/exposures?severity=critical&status=open',
    ready: async (page) => {
      await table('Exposures')(page);
      await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    },
  },
  {
    name: 'exposure-detail',
    get path() {
      return `/exposures/${ids.exposureId}`;
    },
    ready: async (page) => {
      await page.getByRole('table', { name: 'Ranges of the matched advisories' }).waitFor();
      await page.getByLabel('New status').waitFor();
    },
  },
  {
    name: 'vulnerabilities',
    path: '/vulnerabilities?search=GHSA-vu00',
    ready: table('Vulnerabilities'),
  },
  {
    name: 'vulnerability-detail',
    get path() {
      return `/vulnerabilities/${ids.vulnerabilityId}`;
    },
    ready: async (page) => {
      await page.getByRole('table', { name: 'Affected packages' }).waitFor();
      await page.getByRole('table', { name: /^Exposures \(first/ }).waitFor();
    },
  },
  {
    name: 'triage-rules',
    path: '/triage-rules',
    ready: async (page) => {
      await table('Triage rules')(page);
      await page.getByRole('heading', { name: 'VEX documents' }).waitFor();
    },
  },
  { name: 'policies', path: '/policies', ready: table('Policies') },
  {
    name: 'policy-editor',
    get path() {
      return `/policies/${ids.policyId}`;
    },
    ready: async (page) => {
      await heading('Seeded: minimist')(page);
      await page.getByRole('button', { name: 'Dry run' }).waitFor();
    },
  },
  { name: 'violations', path: '/violations?status=open', ready: table('Violations') },
  {
    name: 'violation-detail',
    get path() {
      return `/violations/${ids.violationId}`;
    },
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Grant an exception' }).waitFor();
    },
  },
  { name: 'policy-exceptions', path: '/policy-exceptions', ready: table('Policy exceptions') },
];

/** A datetime-local input's value `days` from now (the inputs take the person's local time). */
function localIn(days: number): string {
  const at = new Date(Date.now() + days * 86_400_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

const skip = browserTestsUnavailable();

const POLICY_JOBS = [
  'policies.evaluate-policy',
  'policies.evaluate-repository',
  'policies.evaluate-package',
];

describe.skipIf(skip !== null)(
  'vulnerability and policy screens in headless Chromium',
  BROWSER_SUITE,
  () => {
    let t: TestApp;
    let tenant: TestTenant;
    let base: string;
    let ui: UiHarness;
    const get = async (url: string) => {
      const res = await t.as(tenant.token, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    beforeAll(async () => {
      t = await createTestApp({}, { webAppDir: WEB_DIST });
      tenant = await t.createTenant('enterprise', 'Acme');
      await importJsonl(t, [
        osvRecord({
          id: 'GHSA-vu00-0001',
          aliases: ['CVE-2026-70001'],
          databaseSeverity: 'CRITICAL',
          affected: [npmRange('left-pad', '0', '2.0.0')],
        }),
        osvRecord({
          id: 'GHSA-vu00-0002',
          databaseSeverity: 'HIGH',
          affected: [npmRange('minimist', '0', '1.2.6')],
        }),
      ]);
      for (let i = 0; i < 3; i++) {
        const id = await insertRepository(t, tenant.tenantId, `app-${i}`);
        await scanWith(
          t,
          tenant.tenantId,
          id,
          [
            { name: 'left-pad', version: '1.0.0' },
            { name: 'minimist', version: '1.2.0' },
          ],
          'all',
        );
      }
      ids.policyId = await createPolicy(t, tenant.token, {
        name: 'Seeded: minimist',
        condition: 'dependency.name == "minimist"',
      });
      await t.runJobs();
      const exposures = await get('/api/v1/vulnerability-exposures?severity=critical&status=open');
      ids.exposureId = exposures.items[0].exposureId;
      ids.vulnerabilityId = exposures.items[0].vulnerabilityId;
      const violations = await get(`/api/v1/policy-violations?policyId=${ids.policyId}`);
      ids.violationId = violations.items[0].violationId;
      const granted = await t.as(tenant.token, {
        method: 'POST',
        url: `/api/v1/policy-violations/${violations.items[1].violationId}/exception`,
        payload: {
          reason: 'Replaced next sprint',
          expiresAtUtc: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        },
      });
      expect(granted.statusCode, granted.body).toBe(201);
      const rule = await t.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/triage-rules',
        payload: {
          vulnerability: 'GHSA-vu00-0002',
          purl: 'pkg:npm/minimist',
          status: 'false_positive',
          reason: 'Seeded rule',
        },
      });
      expect(rule.statusCode, rule.body).toBe(201);
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      ui = await openHarness(base, tenant.token);
      await ui.page.goto(`${base}/`);
      await ui.signIn(tenant.token);
    }, 180_000);

    afterAll(async () => {
      await ui?.close();
      await t?.close();
    });

    for (const step of SCREENS) {
      it(`${step.name}: renders its data, no serious axe violations, fits 390 px`, async () => {
        const walked = await walkScreen(ui, base, step);
        expect(walked.axe, JSON.stringify(walked.axe, null, 1)).toEqual([]);
        expect(walked.horizontalOverflow, 'page wider than a phone').toBeLessThanOrEqual(0);
        expect(ui.problems).toEqual([]);
      }, 90_000);
    }

    it("finds a vulnerability by alias and shows the tenant's exposures to it", async () => {
      const { page } = ui;
      await page.goto(`${base}/vulnerabilities`);
      await page.getByLabel('Identifier, alias or text').fill('CVE-2026-70001');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/search=CVE-2026-70001/);
      await page.getByText('Rows 1–1').waitFor();
      await page.getByRole('link', { name: 'Open CVE-2026-70001 by identifier' }).click();
      await page.getByRole('heading', { level: 1, name: 'CVE-2026-70001' }).waitFor();
      const exposures = page.getByRole('table', { name: /^Exposures \(first/ });
      await exposures.waitFor();
      const api = await get(
        `/api/v1/vulnerability-exposures?vulnerabilityId=${ids.vulnerabilityId}`,
      );
      expect(await exposures.getByRole('row').count()).toBe(api.items.length + 1);
      expect(api.items.length).toBe(3);
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('triages an exposure with only the allowed moves; a refusal shows the problem', async () => {
      const { page } = ui;
      await page.goto(`${base}/exposures/01a25201-0000-7000-8000-000000000000`);
      const missing = page.getByRole('alert');
      await missing.waitFor();
      expect(await missing.textContent()).toMatch(/HTTP 404.*correlation id/);
      await page.goto(`${base}/exposures/${ids.exposureId}`);
      const status = page.getByLabel('New status');
      await status.waitFor();
      const values = () =>
        status
          .locator('option')
          .evaluateAll((options) =>
            options.map((option) => ('value' in option ? String(option.value) : '')),
          );
      expect(await values()).toEqual([
        'open',
        'investigating',
        'affected',
        'not_affected',
        'false_positive',
        'accepted_risk',
      ]);
      await status.selectOption('not_affected');
      await page.getByLabel('Justification (required)').selectOption('code_not_reachable');
      await page.getByLabel(/^Reason/).fill('Only the CLI imports it');
      await page.getByRole('button', { name: 'Save triage' }).click();
      await page.getByRole('definition').filter({ hasText: 'not_affected' }).first().waitFor();
      const stored = await get(`/api/v1/vulnerability-exposures/${ids.exposureId}`);
      expect(stored.status).toBe('not_affected');
      expect(stored.justification).toBe('code_not_reachable');
      expect(stored.reason).toBe('Only the CLI imports it');
      // From not_affected the state machine allows no dismissal of another kind.
      expect(await values()).toEqual(['open', 'investigating', 'affected', 'not_affected']);

      await status.selectOption('affected');
      await page.getByRole('button', { name: 'Save triage' }).click();
      await page
        .getByRole('definition')
        .filter({ hasText: /^affected/ })
        .first()
        .waitFor();
      expect(await values()).toEqual(['investigating', 'affected', 'accepted_risk']);
      // accepted_risk without its expiry: the API refuses and the screen shows its problem.
      await status.selectOption('accepted_risk');
      await page.getByLabel(/^Reason/).fill('Vendor fix due');
      await page.getByRole('button', { name: 'Save triage' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      const text = (await alert.textContent()) ?? '';
      expect(text).toMatch(/HTTP 4\d\d/);
      expect(text).toContain('expiresAtUtc');
      expect(text).toContain('correlation id');
      expect((await get(`/api/v1/vulnerability-exposures/${ids.exposureId}`)).status).toBe(
        'affected',
      );
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('creates a policy after its dry run, then lists its violations', async () => {
      const { page } = ui;
      // Its own name per attempt: a retried walk finds the first attempt's policy stored.
      const name = `No left-pad ${randomUUID().slice(0, 8)}`;
      await ui.explained(async () => {
        await page.goto(`${base}/policies/new`);
        await page.getByLabel('Name').fill(name);
        await page.getByLabel(/^Condition/).fill('dependency.name == "left-pad"');
        await page.getByLabel('Severity').selectOption('critical');
        const save = page.getByRole('button', { name: 'Save policy' });
        expect(await save.isDisabled()).toBe(true);
        await page.getByRole('button', { name: 'Dry run' }).click();
        const summary = page.getByRole('region', { name: 'Dry run' }).getByRole('status');
        await summary.waitFor();
        expect(await summary.textContent()).toMatch(/^3 violations \(3 new\)/);
        expect(
          await page.getByRole('table', { name: 'Would-be violations' }).getByRole('row').count(),
        ).toBe(4);
        // Changing the condition asks for a new dry run before saving.
        await page.getByLabel(/^Condition/).fill('dependency.name == "left-pad" ');
        expect(await save.isDisabled()).toBe(true);
        await page.getByRole('button', { name: 'Dry run' }).click();
        await page.getByRole('heading', { name: 'Dry run', exact: true }).waitFor();
        await save.click();
        await page.waitForURL(/\/policies\/[0-9a-f-]{36}\?saved=1$/);
        await page.getByText('Saved; its evaluation is queued.').waitFor();
        const policyId = new URL(page.url()).pathname.split('/')[2] ?? '';
        const policy = await get(`/api/v1/policies/${policyId}`);
        expect(policy).toMatchObject({ name, severity: 'critical', enabled: true });
        expect(policy.condition.trim()).toBe('dependency.name == "left-pad"');
        const listed = await get('/api/v1/policies');
        expect(listed.items.filter((p: { name: string }) => p.name === name)).toHaveLength(1);

        // Only the evaluation this save queued: the other jobs earlier tests left (alerts,
        // rematching) are not this test's, and in a loaded CI run one of them held it past 90 s.
        await page.goto('about:blank');
        await t.runJobs({ only: POLICY_JOBS });
        const violations = await get(`/api/v1/policy-violations?policyId=${policyId}`);
        expect(violations.items).toHaveLength(3);
        await page.goto(`${base}/violations?policyId=${policyId}`);
        await page.getByRole('table', { name: 'Violations' }).waitFor();
        await page.getByText('Rows 1–3').waitFor();
        const rows = page.getByRole('table', { name: 'Violations' }).getByRole('row');
        expect(await rows.count()).toBe(4);
        expect(await rows.nth(1).textContent()).toContain(name);
        expect(ui.problems).toEqual([]);
      });
    }, 120_000);

    it('discards the draft a dry run stored when the person leaves without saving', async () => {
      const { page } = ui;
      const drafts = async () =>
        (await get('/api/v1/policies')).items.filter(
          (p: { name: string }) => p.name === 'Left unsaved',
        ).length;
      const dryRunThenLeave = async (leave: () => Promise<unknown>) => {
        await page.goto(`${base}/policies/new`);
        await page.getByLabel('Name').fill('Left unsaved');
        await page.getByLabel(/^Condition/).fill('dependency.name == "left-pad"');
        await page.getByRole('button', { name: 'Dry run' }).click();
        await page.getByRole('region', { name: 'Dry run' }).getByRole('status').waitFor();
        expect(await drafts()).toBe(1);
        await leave();
        await expect.poll(drafts, { timeout: 15_000 }).toBe(0);
      };
      await ui.explained(async () => {
        // Another screen of the app: the editor unmounts.
        await dryRunThenLeave(() => page.getByRole('link', { name: 'All policies' }).click());
        // The tab goes (pagehide): a keepalive request outlives the page.
        await dryRunThenLeave(() => page.goto('about:blank'));
      });
      expect(ui.problems).toEqual([]);
    }, 120_000);

    it('imports a VEX document as triage rules and offers the export', async () => {
      const { page } = ui;
      await page.goto(`${base}/triage-rules`);
      await page.getByRole('table', { name: 'Triage rules' }).waitFor();
      const doc = {
        '@context': 'https://openvex.dev/ns/v0.2.0',
        '@id': 'https://example.test/vex/ui',
        author: 'UI test',
        timestamp: '2026-11-01T10:00:00Z',
        version: 1,
        statements: [
          {
            vulnerability: { name: 'CVE-2026-70001' },
            products: [{ '@id': 'pkg:npm/left-pad@1.0.0' }],
            status: 'not_affected',
            justification: 'vulnerable_code_not_in_execute_path',
          },
        ],
      };
      await page.getByLabel(/^OpenVEX or CycloneDX/).setInputFiles({
        name: 'vex.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(doc)),
      });
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByText(/1 statements, 1 created/).waitFor();
      const rules = await get('/api/v1/triage-rules?active=true');
      const vex = rules.items.filter((rule: { origin: string }) => rule.origin === 'vex');
      expect(vex).toHaveLength(1);
      expect(vex[0]).toMatchObject({ status: 'not_affected', packageName: 'left-pad' });
      await page
        .getByRole('row', { name: /CVE-2026-70001|GHSA-vu00-0001/ })
        .first()
        .waitFor();

      await page.getByRole('button', { name: 'Prepare export' }).click();
      const link = page.getByRole('link', { name: 'Download the openvex document' });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const path = await download.path();
      const { readFile } = await import('node:fs/promises');
      const exported = JSON.parse(await readFile(path, 'utf8'));
      expect(exported['@context']).toContain('openvex');
      expect(exported.statements.length).toBeGreaterThan(0);
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('creates and revokes a triage rule; triages a violation; grants and revokes an exception', async () => {
      const { page } = ui;
      await page.goto(`${base}/triage-rules`);
      await page.getByRole('table', { name: 'Triage rules' }).waitFor();
      await page.getByLabel(/^Vulnerability \(CVE/).fill('GHSA-vu00-0001');
      await page.getByLabel('Package URL').fill('pkg:npm/left-pad');
      await page.getByLabel("The rule's decision").selectOption('accepted_risk');
      await page.getByLabel('Reason (required)').fill('Replaced in January');
      await page.getByLabel('Ends (required)').fill(localIn(40));
      await page.getByRole('button', { name: 'Create rule' }).click();
      await page.getByText(/^Rule created for GHSA-vu00-0001 in left-pad/).waitFor();
      const live = await get('/api/v1/triage-rules?active=true&status=accepted_risk');
      expect(live.items).toHaveLength(1);
      expect(live.items[0]).toMatchObject({ reason: 'Replaced in January', origin: 'api' });
      await page
        .getByRole('button', { name: 'Revoke the rule for GHSA-vu00-0001 in left-pad' })
        .click();
      await page
        .getByRole('button', { name: 'Revoke the rule for GHSA-vu00-0001 in left-pad' })
        .waitFor({ state: 'detached' });
      const revoked = await get(`/api/v1/triage-rules/${live.items[0].triageRuleId}`);
      expect(revoked.active).toBe(false);
      expect(revoked.revokedAtUtc).not.toBeNull();

      await page.goto(`${base}/violations/${ids.violationId}`);
      const status = page.getByLabel('New status');
      await status.waitFor();
      await status.selectOption('dismissed');
      await page.getByRole('button', { name: 'Save triage' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/reason.*required/);
      await page.getByLabel('Reason (required)').fill('Only in a test fixture');
      await page.getByRole('button', { name: 'Save triage' }).click();
      await page
        .getByRole('definition')
        .filter({ hasText: /^dismissed/ })
        .waitFor();
      const dismissed = await get(`/api/v1/policy-violations/${ids.violationId}`);
      expect(dismissed).toMatchObject({ status: 'dismissed', reason: 'Only in a test fixture' });

      await page.getByLabel('Justification (required)').fill('Vendored copy, patched');
      await page.getByLabel('Ends (required)').fill(localIn(20));
      await page.getByRole('button', { name: 'Grant exception' }).click();
      await page
        .getByRole('definition')
        .filter({ hasText: /^excepted/ })
        .waitFor();
      const exceptions = await get(`/api/v1/policy-exceptions?policyId=${ids.policyId}`);
      const granted = exceptions.items.find(
        (item: { violationId: string }) => item.violationId === ids.violationId,
      );
      expect(granted).toMatchObject({ reason: 'Vendored copy, patched', status: 'active' });

      await page.goto(`${base}/policy-exceptions?status=active`);
      const revoke = page.getByRole('button', {
        name: 'Revoke the exception “Vendored copy, patched”',
      });
      await revoke.click();
      await revoke.waitFor({ state: 'detached' });
      const gone = await t.as(tenant.token, {
        method: 'GET',
        url: `/api/v1/policy-exceptions?policyId=${ids.policyId}`,
      });
      expect(
        gone
          .json()
          .items.some((item: { exceptionId: string }) => item.exceptionId === granted.exceptionId),
      ).toBe(false);
      expect(ui.problems).toEqual([]);
    }, 90_000);
  },
);

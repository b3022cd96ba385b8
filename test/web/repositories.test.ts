import { readFileSync } from 'node:fs';
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
import { type FakeRegistries, startFakeRegistries } from '../support/fake-registries/index';
import { createGitRepository, type GitFixture } from '../support/git-fixtures';
import {
  createTestApp,
  importJsonl,
  insertFixtureRepository,
  npmRange,
  osvRecord,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../support/scenarios';

/**
 * The repository detail and package screens end to end (web/README.md "End-to-end tests"):
 * a repository cloned from a local git fixture (so "Scan now" runs a real scan), two earlier
 * scans for its drift history, an advisory for its exposures, registry answers from the fake
 * registries, and a second repository of 20,000 dependencies for the table's paging and search.
 */

const BIG = 20_000;

const LOCKFILE = JSON.stringify(
  {
    name: 'web-shop',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        name: 'web-shop',
        version: '1.0.0',
        dependencies: { '@acme/widget': '1.0.1', 'left-pad': '1.1.0' },
      },
      'node_modules/@acme/widget': { version: '1.0.1', dependencies: { 'left-pad': '^1.0.0' } },
      'node_modules/left-pad': { version: '1.1.0' },
    },
  },
  null,
  2,
);

let fake: FakeRegistries;
let t: TestApp;
let tenant: TestTenant;
let fixture: GitFixture;
let shopId: string;
let bigId: string;
let leftPadId: string;
let base: string;
let ui: UiHarness;

const api = async (url: string) => {
  const response = await t.as(tenant.token, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const steps = (): ScreenStep[] => [
  {
    name: 'repository',
    path: `/repositories/${shopId}`,
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Risk summary' }).waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: /Scan completed/ })
        .waitFor();
      await page.getByRole('region', { name: 'Scan log' }).waitFor();
    },
  },
  {
    name: 'repository-dependencies',
    path: `/repositories/${bigId}?tab=dependencies`,
    ready: (page) => page.getByText(/Rows 1–200 of/).waitFor(),
  },
  {
    name: 'repository-graph',
    path: `/repositories/${shopId}?tab=graph`,
    ready: (page) => page.getByRole('list', { name: 'Dependency tree' }).waitFor(),
  },
  {
    name: 'repository-drift',
    path: `/repositories/${shopId}?tab=drift`,
    ready: (page) => page.getByRole('table', { name: /Drift at each scan/ }).waitFor(),
  },
  {
    name: 'repository-exposures',
    path: `/repositories/${shopId}?tab=exposures`,
    ready: async (page) => {
      await page.getByRole('table', { name: 'Exposures' }).waitFor();
      // Reachability with its evidence: index.js requires left-pad on line 1.
      await page.getByRole('cell', { name: 'imported: index.js:1' }).waitFor();
    },
  },
  {
    name: 'repository-exports',
    path: `/repositories/${shopId}?tab=exports`,
    ready: (page) => page.getByRole('button', { name: 'Download CBOM' }).waitFor(),
  },
  {
    name: 'packages',
    path: '/packages?search=a',
    ready: (page) => page.getByRole('table', { name: 'Packages' }).waitFor(),
  },
  {
    name: 'package',
    path: `/packages/${leftPadId}`,
    ready: async (page) => {
      await page.getByRole('region', { name: 'Health signals' }).waitFor();
      await page.getByRole('heading', { name: 'Replacement candidates' }).waitFor();
      await page.getByRole('heading', { name: 'Used by your repositories' }).waitFor();
      await page.getByRole('table').last().waitFor();
    },
  },
  {
    name: 'packages-watched',
    path: '/packages/watched',
    ready: (page) => page.getByRole('table', { name: 'Watched packages' }).waitFor(),
  },
];

/** The tab's status line (role=status) once it reads `pattern`. */
const statusReads = (page: Page, pattern: RegExp) =>
  page.getByRole('status').filter({ hasText: pattern }).first().waitFor({ timeout: 30_000 });

const skip = browserTestsUnavailable();
if (skip) console.warn(`web app browser tests skipped: ${skip}`);

describe.skipIf(skip !== null)(
  'repository and package screens in headless Chromium',
  BROWSER_SUITE,
  () => {
    beforeAll(async () => {
      fake = await startFakeRegistries();
      t = await createTestApp({ registries: fake.settings() }, { webAppDir: WEB_DIST });
      tenant = await t.createTenant('enterprise', 'Acme');
      await importJsonl(t, [
        osvRecord({
          id: 'GHSA-repo-0001',
          databaseSeverity: 'CRITICAL',
          affected: [npmRange('left-pad', '0', '1.3.0')],
        }),
      ]);
      fixture = createGitRepository({
        'package-lock.json': LOCKFILE,
        'package.json': '{"name":"web-shop","version":"1.0.0"}',
        'index.js': "require('left-pad');\n",
      });
      shopId = await insertFixtureRepository(t, tenant.tenantId, 'web-shop', fixture);
      for (const [month, widget, jobs] of [
        ['01', '1.0.0', true],
        ['02', '1.0.1', false],
      ] as const) {
        await storeScan(
          t,
          tenant,
          'web-shop',
          [
            { ecosystem: 'npm', name: 'left-pad', version: '1.1.0' },
            { ecosystem: 'npm', name: '@acme/widget', version: widget },
          ],
          new Date(`2026-${month}-01T00:00:00Z`),
          jobs,
        );
      }
      await t.runJobs();
      const seeded = Date.now();
      bigId = (
        await storeScan(
          t,
          tenant,
          'monorepo',
          Array.from({ length: BIG }, (_, n) => ({
            ecosystem: 'npm' as const,
            name: `pkg-${String(n).padStart(5, '0')}`,
            version: '1.0.0',
            direct: n % 4 === 0,
          })),
          new Date('2026-03-01T00:00:00Z'),
          false,
        )
      ).repositoryId;
      // The 20,000 packages' enrichment is not this test's business: drop the queued jobs.
      await t.runJobs({ only: [] });
      console.info(`seeded ${BIG} dependencies in ${Date.now() - seeded} ms`);
      const found = await api('/api/v1/packages?search=left-pad&ecosystem=npm');
      leftPadId = found.items[0].packageId;
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      ui = await openHarness(base, tenant.token);
      await ui.signIn(tenant.token);
    }, 300_000);

    afterAll(async () => {
      await ui?.close();
      await t?.close();
      await fake?.close();
      fixture?.remove();
    });

    it('opens a repository from the list, shows its dependencies and filters them', async () => {
      const { page } = ui;
      await page.goto(`${base}/repositories`);
      await page.getByRole('link', { name: 'fixtures/web-shop' }).click();
      await page.getByRole('heading', { level: 1, name: 'fixtures/web-shop' }).waitFor();
      await page.getByRole('link', { name: 'Dependencies' }).click();
      await page.waitForURL(/tab=dependencies/);
      const table = page.getByRole('table', { name: 'Dependencies' });
      await table.waitFor();
      expect(await table.getByRole('row').count()).toBe(3);
      await page.getByLabel('Name contains').fill('widget');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/search=widget/);
      await page.getByText('Rows 1–1').waitFor();
      expect(await table.getByRole('row').nth(1).textContent()).toContain('@acme/widget');
      await page.getByLabel('Name contains').fill('');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByLabel('Direct (true) or transitive (false)').selectOption('true');
      await page.waitForURL(/direct=true/);
      await page.getByText('Rows 1–2').waitFor();
      // The link from a dependency leads to its package.
      await table.getByRole('link', { name: 'left-pad' }).click();
      await page.getByRole('heading', { level: 1, name: 'left-pad (npm)' }).waitFor();
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('pages and searches 20,000 dependencies on the server, rendering only visible rows', async () => {
      const { page } = ui;
      const opened = Date.now();
      await page.goto(`${base}/repositories/${bigId}?tab=dependencies`);
      await page.getByText(/Rows 1–200 of/).waitFor();
      const openMs = Date.now() - opened;
      const table = page.getByRole('table', { name: 'Dependencies' });
      expect(await table.getAttribute('aria-rowcount')).toBe('201');
      const rendered = await table.getByRole('row').count();
      expect(rendered).toBeLessThan(60);
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText(/Rows 201–400 of/).waitFor();
      const searched = Date.now();
      await page.getByLabel('Name contains').fill('pkg-19999');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Rows 1–1').waitFor();
      const searchMs = Date.now() - searched;
      expect(await table.getByRole('row').nth(1).textContent()).toContain('pkg-19999');
      // pkg-19999 is transitive: the direct-only filter leaves nothing, on the server.
      await page.getByLabel('Direct (true) or transitive (false)').selectOption('true');
      await page.waitForURL(/direct=true/);
      await page.getByText('No dependencies match these filters.').waitFor();
      console.info(
        `20,000 dependencies: first page ${openMs} ms, search ${searchMs} ms, ${rendered} rows in the DOM`,
      );
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('Scan now queues a scan and follows it and its log live until it finishes', async () => {
      const { page } = ui;
      await page.goto(`${base}/repositories/${shopId}`);
      await page.getByRole('heading', { name: 'Latest scan' }).waitFor();
      await page.getByRole('button', { name: 'Scan now' }).click();
      await statusReads(page, /Scan queued/);
      expect(await page.getByRole('button', { name: 'Scan now' }).isDisabled()).toBe(true);
      await t.runJobs();
      await statusReads(page, /Scan completed/);
      const log = page.getByRole('region', { name: 'Scan log' });
      expect(await log.getByRole('listitem').count()).toBeGreaterThan(0);
      const scans = await api(`/api/v1/scans?repositoryId=${shopId}&take=1`);
      expect(scans.items[0]).toMatchObject({ state: 'completed', trigger: 'manual' });
      expect(await page.getByRole('button', { name: 'Scan now' }).isDisabled()).toBe(false);
      expect(ui.problems).toEqual([]);
    }, 90_000);

    it('requests an SBOM export, waits for it and downloads it; downloads the CBOM', async () => {
      const { page } = ui;
      await page.goto(`${base}/repositories/${shopId}?tab=exports`);
      await page.getByLabel('Format').selectOption('spdx-2.3');
      await page.getByRole('button', { name: 'Request SBOM export' }).click();
      await statusReads(page, /Export spdx-2\.3: queued/);
      await t.runJobs();
      await statusReads(page, /Export spdx-2\.3: completed/);
      const [sbom] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download spdx-2.3' }).first().click(),
      ]);
      expect(sbom.suggestedFilename()).toMatch(/\.spdx\.json$/);
      const document = JSON.parse(readFileSync(await sbom.path(), 'utf8'));
      expect(document.spdxVersion).toBe('SPDX-2.3');
      const [cbom] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CBOM' }).click(),
      ]);
      expect(cbom.suggestedFilename()).toBe(`cbom-${shopId}.cdx.json`);
      expect(JSON.parse(readFileSync(await cbom.path(), 'utf8')).bomFormat).toBe('CycloneDX');
      expect(ui.problems).toEqual([]);
    }, 90_000);

    it('watches and unwatches a package; GET /packages/watched follows', async () => {
      const { page } = ui;
      const watched = async () =>
        (await api('/api/v1/packages/watched')).items.map(
          (i: { packageId: string }) => i.packageId,
        );
      expect(await watched()).not.toContain(leftPadId);
      await page.goto(`${base}/packages/${leftPadId}`);
      await page.getByRole('button', { name: 'Watch', exact: true }).click();
      await page.getByRole('button', { name: 'Unwatch' }).waitFor();
      expect(await watched()).toContain(leftPadId);
      await page.getByRole('button', { name: 'Unwatch' }).click();
      await page.getByRole('button', { name: 'Watch', exact: true }).waitFor();
      expect(await watched()).not.toContain(leftPadId);
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('walks every screen: data shown, no serious axe violations, fits 390 px', async () => {
      // Something to list on the watched screen.
      const widget = await api('/api/v1/packages?search=widget');
      await t.as(tenant.token, {
        method: 'POST',
        url: `/api/v1/packages/${widget.items[0].packageId}/watch`,
        payload: { note: 'pinned by the shop' },
      });
      await ui.page.goto(`${base}/`);
      // walkScreen navigates in the app: wait until the app listens for navigation.
      await ui.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      for (const step of steps()) {
        const walked = await walkScreen(ui, base, step);
        expect(walked.axe, `${step.name}: ${JSON.stringify(walked.axe, null, 1)}`).toEqual([]);
        expect(walked.horizontalOverflow, `${step.name} wider than a phone`).toBeLessThanOrEqual(0);
        expect(ui.problems, step.name).toEqual([]);
      }
    }, 300_000);
  },
);

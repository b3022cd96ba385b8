import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/tenant-scope';
import { importKevFile } from '../../src/domains/cra/findings/kev';
import { GENERATE_PACK } from '../../src/domains/cra-reporting/packs/service';
import { PROBE_ENDPOINT } from '../../src/domains/quantum/tls/jobs';
import { queueScan } from '../../src/domains/scans/service';
import {
  BROWSER_SUITE,
  browserTestsUnavailable,
  openHarness,
  type ScreenStep,
  type UiHarness,
  WEB_DIST,
  walkScreen,
} from '../support/browser';
import { createGitRepository, type GitFixture } from '../support/git-fixtures';
import {
  createCraProduct,
  createTestApp,
  importantProduct,
  importJsonl,
  insertRepository,
  kevCatalogue,
  kevEntry,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../support/scenarios';
import { type SelfSignedCertificate, selfSignedCertificate } from '../support/tls-certificate';
import {
  allowLoopbackProbes,
  type LocalServer,
  probeNow,
  startTlsServer,
  watchEndpoint,
} from '../support/tls-endpoints';

/**
 * The CRA and quantum screens end to end (docs/ui.md): a product with a known-exploited
 * vulnerability (findings, duties, Annex I, running Article 14 clocks), a scanned repository
 * with crypto code and a committed certificate, a watched local TLS endpoint. Each screen is
 * walked (screenshots, axe at 1280 and 390 px); requesting and downloading a report pack,
 * triaging a quantum finding and probing an endpoint are checked through the API afterwards.
 */

const KEYS_JS = [
  "const crypto = require('node:crypto');",
  'function legacyKeys() {',
  "  return crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });",
  '}',
  "const shared = crypto.createECDH('prime256v1');",
  'module.exports = { legacyKeys, shared };',
  '',
].join('\n');

interface Seeded {
  productId: string;
  quantumRepositoryId: string;
  endpointId: string;
  endpointPort: number;
}

const STEPS: ((s: Seeded) => ScreenStep)[] = [
  () => ({
    name: 'cra',
    path: '/cra',
    ready: (page) => page.getByRole('table', { name: 'CRA products' }).waitFor(),
  }),
  () => ({
    name: 'cra-clocks',
    path: '/cra/clocks?withinHours=168',
    ready: (page) => page.getByRole('table', { name: 'Clocks due' }).waitFor(),
  }),
  (s) => ({
    name: 'cra-product',
    path: `/cra/products/${s.productId}`,
    ready: async (page) => {
      await page.getByRole('table', { name: 'Findings' }).waitFor();
      await page.getByRole('table', { name: 'Annex I requirements' }).waitFor();
      await page.getByRole('table', { name: 'Product clocks' }).waitFor();
    },
  }),
  () => ({
    name: 'quantum',
    path: '/quantum',
    ready: async (page) => {
      await page.getByRole('table', { name: 'Repositories by readiness' }).waitFor();
      await page.getByRole('table', { name: 'TLS endpoints' }).waitFor();
    },
  }),
  (s) => ({
    name: 'quantum-repository',
    path: `/quantum/repositories/${s.quantumRepositoryId}`,
    ready: async (page) => {
      await page.getByRole('table', { name: 'Quantum findings' }).waitFor();
      await page.getByRole('table', { name: 'Certificates' }).waitFor();
    },
  }),
];

const skip = browserTestsUnavailable();
if (skip) console.warn(`CRA and quantum browser tests skipped: ${skip}`);

describe.skipIf(skip !== null)(
  'CRA and quantum screens in headless Chromium',
  BROWSER_SUITE,
  () => {
    let t: TestApp;
    let tenant: TestTenant;
    let base: string;
    let ui: UiHarness;
    let dir: string;
    let repo: GitFixture;
    let certificate: SelfSignedCertificate;
    let tls: LocalServer;
    const seeded: Seeded = {
      productId: '',
      quantumRepositoryId: '',
      endpointId: '',
      endpointPort: 0,
    };

    const api = async (url: string) => {
      const res = await t.as(tenant.token, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };

    async function seedCra() {
      const repositoryId = await insertRepository(t, tenant.tenantId, 'router-fw');
      await importJsonl(t, [
        osvRecord({
          id: 'GHSA-webc-0001',
          aliases: ['CVE-2026-5151'],
          databaseSeverity: 'CRITICAL',
          affected: [npmRange('tcp-lib', '0', '3.0.0')],
        }),
        osvRecord({
          id: 'GHSA-webc-0002',
          databaseSeverity: 'MEDIUM',
          affected: [npmRange('yaml-lite', '0', '1.4.0')],
        }),
      ]);
      const deps = [
        { name: 'tcp-lib', version: '2.1.0' },
        { name: 'yaml-lite', version: '1.2.0' },
      ];
      await scanWith(t, tenant.tenantId, repositoryId, deps, 'all');
      seeded.productId = await createCraProduct(t, tenant.token, {
        ...importantProduct([repositoryId]),
        name: 'Router',
      });
      await createCraProduct(t, tenant.token, { name: 'Companion app' });
      const file = join(dir, 'kev.json');
      writeFileSync(file, JSON.stringify(kevCatalogue([kevEntry('CVE-2026-5151')])));
      await importKevFile(t.database, file);
      await t.runJobs();
    }

    async function seedQuantum() {
      certificate = selfSignedCertificate('web.quantum.test', ['DNS:web.quantum.test']);
      repo = createGitRepository({
        'package.json': JSON.stringify({ name: 'q', version: '1.0.0', dependencies: {} }),
        'src/keys.js': KEYS_JS,
        'deploy/server.pem': certificate.cert.toString('utf8'),
      });
      seeded.quantumRepositoryId = await insertRepository(t, tenant.tenantId, 'crypto-service', {
        full_name: 'fixtures/crypto-service',
        clone_url: repo.url,
        default_branch: 'main',
      });
      const { tenantId } = tenant;
      const repositoryId = seeded.quantumRepositoryId;
      await withTenant(t.database, tenantId, (db) =>
        queueScan(db, { tenantId, repositoryId, trigger: 'manual', correlationId: 'web' }),
      );
      await t.runJobs();
      allowLoopbackProbes(t, tenantId);
      tls = await startTlsServer(certificate, { minVersion: 'TLSv1.3' });
      seeded.endpointPort = tls.port;
      seeded.endpointId = await watchEndpoint(t, tenant.token, {
        host: '127.0.0.1',
        port: tls.port,
        serverName: 'web.quantum.test',
      });
      await probeNow(t, tenant.token, seeded.endpointId);
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'web-cra-'));
      t = await createTestApp({}, { webAppDir: WEB_DIST });
      tenant = await t.createTenant('enterprise', 'Acme');
      await seedCra();
      await seedQuantum();
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      ui = await openHarness(base, tenant.token);
      await ui.signIn(tenant.token);
    }, 240_000);

    afterAll(async () => {
      await ui?.close();
      await t?.close();
      await tls?.close();
      repo?.remove();
      certificate?.remove();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const [index, make] of STEPS.entries()) {
      it(`screen ${index + 1}: renders its data, no serious axe violations, fits 390 px`, async () => {
        const walked = await walkScreen(ui, base, make(seeded));
        expect(walked.axe, JSON.stringify(walked.axe, null, 1)).toEqual([]);
        expect(walked.horizontalOverflow, 'page wider than a phone').toBeLessThanOrEqual(0);
        expect(ui.problems).toEqual([]);
      }, 90_000);
    }

    it('clocks: due soon first, the withinHours filter in the URL', async () => {
      const { page } = ui;
      await page.goto(`${base}/cra/clocks?withinHours=168`);
      await page.getByRole('table', { name: 'Clocks due' }).waitFor();
      const due = await api('/api/v1/cra/clocks/due?withinHours=168');
      const kinds = due.json().items.map((c: { kind: string }) => c.kind.replace('_', ' '));
      expect(kinds).toEqual(['early warning', 'notification']);
      const rows = page.getByRole('table', { name: 'Clocks due' }).getByRole('row');
      expect(await rows.nth(1).textContent()).toContain('early warning');
      expect(await rows.nth(1).textContent()).toContain('Router');
      await page.getByLabel('Due within').selectOption('24');
      await page.waitForURL(/withinHours=24$/);
      await page.getByText('(24 hours)').waitFor();
      expect(await rows.count()).toBe(2);
    }, 60_000);

    it('requests a report pack, waits until ready and downloads it', async () => {
      const { page } = ui;
      await page.goto(`${base}/cra/products/${seeded.productId}`);
      await page.getByRole('button', { name: 'Request a report pack' }).click();
      await page.getByText('Latest pack: queued').waitFor();
      const listed = await api(`/api/v1/cra/reports?productId=${seeded.productId}`);
      const [pack] = listed.json().items as { packId: string; state: string }[];
      expect(pack?.state).toBe('queued');
      expect(await t.runJobs()).toContain(GENERATE_PACK.name);
      await page.getByText('Latest pack: ready').waitFor({ timeout: 15_000 });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page
          .getByRole('button', { name: /^Download pdf/ })
          .first()
          .click(),
      ]);
      const saved = await download.path();
      const bytes = readFileSync(saved);
      expect(bytes.length).toBeGreaterThan(500);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);

      const document = await api(`/api/v1/cra/reports/${pack?.packId}?format=pdf`);
      expect(document.headers['content-type']).toBe('application/pdf');
      expect(document.rawPayload.length).toBe(bytes.length);
      const [markdown] = await Promise.all([
        page.waitForEvent('download'),
        page
          .getByRole('button', { name: /^Download markdown/ })
          .first()
          .click(),
      ]);
      expect(readFileSync(await markdown.path()).toString('utf8')).toContain('Router');
      expect(ui.problems).toEqual([]);
    }, 90_000);

    it('triages a quantum finding with only the allowed moves', async () => {
      const { page } = ui;
      const path = `/quantum/repositories/${seeded.quantumRepositoryId}`;
      await page.goto(`${base}${path}?severity=high`);
      await page.getByRole('table', { name: 'Quantum findings' }).waitFor();
      const findingsUrl = `/api/v1/repositories/${seeded.quantumRepositoryId}/quantum/findings`;
      const before = (await api(`${findingsUrl}?severity=high`)).json().items as {
        findingId: string;
        file: string | null;
        line: number | null;
        status: string;
      }[];
      const target = before.find((f) => f.file === 'src/keys.js');
      expect(target?.status).toBe('open');
      const label = `src/keys.js:${target?.line}`;
      await page.getByRole('button', { name: `Triage ${label}` }).click();
      const options = await page.getByLabel('New status').locator('option').allTextContents();
      expect(options).toEqual([
        'open (keep, update details)',
        'investigating',
        'affected',
        'not affected',
        'false positive',
        'accepted risk',
      ]);
      await page.getByLabel('New status').selectOption('accepted_risk');
      await page.getByLabel(/^Reason/).fill('Partner API retires in 2027');
      await page.getByLabel(/^Accepted until/).fill('2030-06-30');
      await page.getByRole('button', { name: 'Save status' }).click();
      await page.getByText(`${label} is now accepted risk.`).waitFor();

      const after = (await api(findingsUrl)).json().items as {
        findingId: string;
        status: string;
        statusReason: string | null;
        acceptedUntilUtc: string | null;
      }[];
      expect(after.find((f) => f.findingId === target?.findingId)).toMatchObject({
        status: 'accepted_risk',
        statusReason: 'Partner API retires in 2027',
        acceptedUntilUtc: '2030-06-30T23:59:59.000Z',
      });
      // From accepted_risk only investigating, affected and accepted_risk are offered.
      await page.getByRole('button', { name: `Triage ${label}` }).click();
      const next = await page.getByLabel('New status').locator('option').allTextContents();
      expect(next).toEqual(['investigating', 'affected', 'accepted risk (keep, update details)']);
      await page.getByRole('button', { name: 'Cancel' }).click();

      const [cbom] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /Download the CBOM/ }).click(),
      ]);
      expect(cbom.suggestedFilename()).toBe(`cbom-${seeded.quantumRepositoryId}.cdx.json`);
      const bom = JSON.parse(readFileSync(await cbom.path(), 'utf8'));
      expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
      expect(ui.problems).toEqual([]);
    }, 60_000);

    it('shows the TLS verdict and probes an endpoint now', async () => {
      const { page } = ui;
      await page.goto(`${base}/quantum`);
      const table = page.getByRole('table', { name: 'TLS endpoints' });
      await table.waitFor();
      const endpoint = await api(`/api/v1/quantum/tls-endpoints/${seeded.endpointId}`);
      const verdict = endpoint.json().latestObservation.state as string;
      expect(await table.getByRole('row').nth(1).textContent()).toContain(verdict);
      const observations = `/api/v1/quantum/tls-observations?endpointId=${seeded.endpointId}`;
      const seen = (await api(observations)).json().items.length as number;
      await page
        .getByRole('button', { name: `Probe now 127.0.0.1:${seeded.endpointPort}` })
        .click();
      await page.getByText(`Probe of 127.0.0.1:${seeded.endpointPort} queued.`).waitFor();
      expect(await t.runJobs()).toContain(PROBE_ENDPOINT.name);
      expect((await api(observations)).json().items.length).toBe(seen + 1);
      expect(ui.problems).toEqual([]);
    }, 60_000);
  },
);

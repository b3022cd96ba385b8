import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
} from '../../../test/support/scenarios';
import { importKevFile } from '../cra/findings/kev';
import { START_CLOCKS } from './jobs';
import { GENERATE_PACK } from './packs/service';

/**
 * From a scanned repository with a known-exploited vulnerability (the KEV list imported from a
 * file made here) to the product, the `cra.actively_exploited` event, the Article 14 clocks and
 * a generated report pack in all four formats.
 */
describe('CRA reporting end to end', () => {
  let t: TestApp;
  let a: TestTenant;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    dir = mkdtempSync(join(tmpdir(), 'cra-e2e-'));
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scans, imports the KEV list, starts the clocks and generates the pack', async () => {
    const repositoryId = await insertRepository(t, a.tenantId, 'router-fw');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-e2ek-0001',
        aliases: ['CVE-2026-4242'],
        databaseSeverity: 'CRITICAL',
        affected: [npmRange('tcp-lib', '0', '3.0.0')],
      }),
    ]);
    await scanWith(t, a.tenantId, repositoryId, [{ name: 'tcp-lib', version: '2.1.0' }], 'all');
    const productId = await createCraProduct(t, a.token, {
      name: 'Router',
      repositoryIds: [repositoryId],
    });
    const file = join(dir, 'kev.json');
    writeFileSync(file, JSON.stringify(kevCatalogue([kevEntry('CVE-2026-4242')])));
    await importKevFile(t.database, file);
    expect(await t.runJobs()).toContain(START_CLOCKS.name);

    const clocks = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/cra/products/${productId}/clocks`,
    });
    const items = clocks.json().items as { clockId: string; kind: string; state: string }[];
    expect(items.map((c) => [c.kind, c.state])).toEqual([
      ['early_warning', 'running'],
      ['notification', 'running'],
    ]);
    const due = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/cra/clocks/due?withinHours=24',
    });
    expect(due.json().items.map((c: { kind: string }) => c.kind)).toEqual(['early_warning']);
    const submitted = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/cra/clocks/${items[0]?.clockId}/submission`,
      payload: { reference: 'SRP-2026-0001', note: 'early warning to the CSIRT and ENISA' },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);

    const queued = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/cra/reports',
      payload: { productId },
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const { packId } = queued.json();
    expect(await t.runJobs()).toContain(GENERATE_PACK.name);
    const get = (format: string) =>
      t.as(a.token, { method: 'GET', url: `/api/v1/cra/reports/${packId}?format=${format}` });

    const json = (await get('json')).json();
    // The findings as GET /api/v1/cra/findings has them: data, not display text.
    const listed = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/cra/findings?productId=${productId}`,
    });
    const finding = json.findings.find(
      (f: { canonicalId: string }) => f.canonicalId === 'CVE-2026-4242',
    );
    expect(finding).toEqual(
      listed.json().items.find((f: { canonicalId: string }) => f.canonicalId === 'CVE-2026-4242'),
    );
    expect(finding).toMatchObject({
      findingId: expect.any(String),
      repositoryId,
      packageName: 'tcp-lib',
      version: '2.1.0',
      severity: 'critical',
      fixedVersions: ['3.0.0'],
      activelyExploited: true,
      state: 'reported',
    });
    expect(json.clocks.map((c: { kind: string; state: string }) => [c.kind, c.state])).toEqual([
      ['early_warning', 'met'],
      ['notification', 'running'],
    ]);
    expect(json.repositories[0].sbom.components[0]).toMatchObject({
      name: 'tcp-lib',
      version: '2.1.0',
    });
    const markdown = await get('markdown');
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toContain('| CVE-2026-4242 |');
    expect(markdown.body).toContain('SRP-2026-0001');
    const csv = await get('csv');
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.split('\r\n');
    const findingsHeader = rows.indexOf(
      rows.find((r) => r.startsWith('section,reference,findingId,')) ?? '',
    );
    expect(findingsHeader).toBeGreaterThan(0);
    expect(rows[findingsHeader + 1]).toMatch(
      new RegExp(
        `^findings,CVE-2026-4242,${finding.findingId},vulnerability,${repositoryId},npm,tcp-lib@2.1.0,tcp-lib,2.1.0,critical,reported,3.0.0,true,`,
      ),
    );
    const pdf = await get('pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

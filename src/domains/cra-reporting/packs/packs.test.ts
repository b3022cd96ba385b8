import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCraProduct,
  createTestApp,
  importantProduct,
  insertRepository,
  scanWith,
  type TestApp,
  type TestTenant,
  tenantsWithTeam,
} from '../../../../test/support/scenarios';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { ANNEX_I_REQUIREMENTS, CRA_DUTIES } from '../../cra/annex-i/requirements';
import { GENERATE_PACK } from './service';

const PDFTOPPM = '/usr/bin/pdftoppm';

/** The fraction of rows of a grey 8-bit PNG (pdftoppm -gray) with a pixel darker than white. */
function inkedFraction(png: Buffer): number {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') {
      chunks.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  let previous = Buffer.alloc(width);
  let inked = 0;
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (width + 1)];
    const line = Buffer.from(raw.subarray(row * (width + 1) + 1, (row + 1) * (width + 1)));
    for (let x = 0; x < width; x++) {
      const left = x > 0 ? (line[x - 1] as number) : 0;
      const up = previous[x] as number;
      const upLeft = x > 0 ? (previous[x - 1] as number) : 0;
      const p = left + up - upLeft;
      const paeth =
        Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft)
          ? left
          : Math.abs(p - up) <= Math.abs(p - upLeft)
            ? up
            : upLeft;
      const predictor = [0, left, up, (left + up) >> 1, paeth][filter as number] as number;
      line[x] = ((line[x] as number) + predictor) & 0xff;
    }
    if (line.some((value) => value < 250)) inked++;
    previous = line;
  }
  return inked / height;
}

describe('CRA report packs', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let team: TestTenant;
  let viewer: string;
  let productId: string;
  let repositoryId: string;
  let packId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b, team, token: viewer } = await tenantsWithTeam(t, 'viewer'));
    repositoryId = await insertRepository(t, a.tenantId, 'firmware');
    const deps = Array.from({ length: 70 }, (_, i) => ({ name: `lib-${i}`, version: `1.${i}.0` }));
    await scanWith(t, a.tenantId, repositoryId, deps, []);
    productId = await createCraProduct(t, a.token, importantProduct([repositoryId]));
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const pack = (token: string, packId: string, format?: string) =>
    t.as(token, {
      method: 'GET',
      url: `/api/v1/cra/reports/${packId}${format ? `?format=${format}` : ''}`,
    });

  it('queues a pack (202), answers 409 until generated and 400 for another format', async () => {
    const forbidden = await t.as(viewer, {
      method: 'POST',
      url: '/api/v1/cra/reports',
      payload: { productId },
    });
    expect(forbidden.statusCode).toBe(403);
    const planless = await t.as(team.token, {
      method: 'POST',
      url: '/api/v1/cra/reports',
      payload: { productId },
    });
    expect(planless.statusCode).toBe(403);
    const other = await t.as(b.token, {
      method: 'POST',
      url: '/api/v1/cra/reports',
      payload: { productId },
    });
    expect(other.statusCode).toBe(404);
    const res = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/cra/reports',
      payload: { productId },
    });
    expect(res.statusCode, res.body).toBe(202);
    packId = res.json().packId;
    expect(res.headers.location).toBe(`/api/v1/cra/reports/${packId}`);
    expect(res.json()).toMatchObject({ state: 'queued', productId });
    for (const format of ['json', 'markdown', 'pdf', 'csv']) {
      const early = await pack(viewer, packId, format);
      expect(early.statusCode, format).toBe(409);
      expect(early.headers['content-type']).toContain('application/problem+json');
    }
    const bad = await pack(viewer, packId, 'xml');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('format');
    expect((await pack(b.token, packId)).statusCode).toBe(404);
    expect((await pack(b.token, packId, 'json')).statusCode).toBe(404);
    expect((await pack(a.token, newId(), 'json')).statusCode).toBe(404);
    expect((await pack(team.token, packId, 'json')).statusCode).toBe(403);

    expect(await t.runJobs()).toContain(GENERATE_PACK.name);
    expect((await pack(viewer, packId)).json().state).toBe('ready');
    const list = await t.as(viewer, {
      method: 'GET',
      url: `/api/v1/cra/reports?productId=${productId}`,
    });
    expect(list.json().items.map((p: { packId: string }) => p.packId)).toEqual([packId]);
    expect(
      (await t.as(b.token, { method: 'GET', url: '/api/v1/cra/reports' })).json().items,
    ).toEqual([]);

    const json = await pack(viewer, packId, 'json');
    expect(json.statusCode).toBe(200);
    const content = json.json();
    expect(content.product).toMatchObject({ name: 'Gateway', classification: 'important_class_i' });
    expect(content.conformityRoute.legalBasis).toBe('Art. 32(2)');
    expect(content.repositories[0].sbom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
    });
    expect(content.repositories[0].componentCount).toBe(70);
    // Every Annex I requirement and duty, as the CRA routes show them: computed where the data
    // can tell (an SBOM of a scanned repository exists → Part II (1) is not left unassessed).
    expect(content.annexI).toHaveLength(ANNEX_I_REQUIREMENTS.length);
    expect(content.duties).toHaveLength(CRA_DUTIES.length);
    // As data (ids, status, basis, evidence as a list), the same items the CRA routes answer.
    const route = async (path: string) =>
      (await t.as(viewer, { method: 'GET', url: `${path}?productId=${productId}` })).json().items;
    expect(content.annexI).toMatchObject(await route('/api/v1/cra/annex-i'));
    expect(content.duties).toMatchObject(await route('/api/v1/cra/duties'));
    const sbomItem = content.annexI.find(
      (i: { reference: string }) => i.reference === 'Annex I Part II (1)',
    );
    expect(sbomItem).toMatchObject({ id: expect.any(String), basis: 'computed' });
    expect(sbomItem.evidence).toEqual([expect.stringContaining('linked repositories')]);
    expect(sbomItem.status).not.toBe('not_assessed');
    expect(content.duties[0]).toMatchObject({ id: CRA_DUTIES[0]?.id });

    const markdown = await pack(viewer, packId, 'markdown');
    expect(markdown.headers['content-type']).toContain('text/markdown');
    expect(markdown.body).toContain('# CRA report pack: Gateway 2.x');
    expect(markdown.body).toContain('| lib-0 | 1.0.0 |');

    const csv = await pack(viewer, packId, 'CSV');
    expect(csv.headers['content-type']).toContain('text/csv');
    // product, repositories, one SBOM, findings, Annex I, duties, clocks, incidents.
    expect(csvSections(csv.body)).toEqual({
      headers: 8,
      sections: ['product', 'repositories', 'sbomComponents', 'annexI', 'duties'],
    });
    expect(csv.body).toContain(`\r\nproduct,manufacturer,Acme GmbH,`);
    expect(csv.body).toContain(`\r\nsbomComponents,${repositoryId},lib-0,1.0.0,`);
    const annexRow = csv.body
      .split('\r\n')
      .find((r) => r.startsWith('annexI,Annex I Part II (1),'));
    expect(annexRow).toContain(`,${sbomItem.id},`);
    expect(annexRow).toContain(`,${sbomItem.status},computed,`);

    const pdf = await pack(viewer, packId, 'pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    checkPdfPages(pdf.rawPayload);
  });

  it('still renders a pack generated before the sections carried data', async () => {
    const legacy = { ref: 'CVE-2020-0001', title: 'old-lib@1.0.0', state: 'open', detail: 'x' };
    await withTenant(t.database, a.tenantId, async (db) => {
      const row = await db
        .selectFrom('cra_report_packs')
        .select('content')
        .where('id', '=', packId)
        .executeTakeFirstOrThrow();
      const content = { ...(row.content as object), findings: [legacy], annexI: [legacy] };
      await db
        .updateTable('cra_report_packs')
        .set({ content: JSON.stringify(content) })
        .where('id', '=', packId)
        .execute();
    });
    const markdown = await pack(viewer, packId, 'markdown');
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toContain('| CVE-2020-0001 | old-lib@1.0.0 | open | x |');
    const csv = await pack(viewer, packId, 'csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('\r\nsection,reference,title,state,detail,');
    expect(csv.body).toContain('\r\nfindings,CVE-2020-0001,old-lib@1.0.0,open,x,');
    expect((await pack(viewer, packId, 'json')).json().findings).toEqual([legacy]);
  });
});

/**
 * Every section of the CSV starts with a header row (`section`, then camelCase column keys),
 * empty sections too; its rows name it (camelCase); one width throughout. Returns the number of
 * header rows and the sections that have rows.
 */
function csvSections(csv: string): { headers: number; sections: string[] } {
  const rows = csv.trimEnd().split('\r\n');
  const width = rows[0]?.split(',').length;
  expect(rows[0]).toMatch(/^section,/);
  let headers = 0;
  let current: string | null = null;
  let previousWasHeader = false;
  const sections: string[] = [];
  for (const row of rows) {
    if (!row.includes('"')) expect(row.split(',').length, row).toBe(width);
    const [first, ...rest] = row.split(',');
    if (first === 'section') {
      headers++;
      previousWasHeader = true;
      for (const key of rest.filter(Boolean)) expect(key, row).toMatch(/^[a-z][A-Za-z]*$/);
      continue;
    }
    expect(first, row).toMatch(/^[a-z][A-Za-z]*$/);
    // A data row follows its section's header row or another row of the same section.
    if (previousWasHeader) {
      current = first as string;
      if (!sections.includes(current)) sections.push(current);
    }
    expect(first, row).toBe(current);
    previousWasHeader = false;
  }
  return { headers, sections };
}

/** Renders the PDF with pdftoppm: several pages, none blank; keeps page 1 for docs/images. */
function checkPdfPages(pdf: Buffer): void {
  if (!existsSync(PDFTOPPM)) {
    console.warn(`${PDFTOPPM} is absent (Debian's poppler-utils): the PDF pages are not rendered`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cra-pdf-'));
  try {
    const file = join(dir, 'pack.pdf');
    writeFileSync(file, pdf);
    execFileSync(PDFTOPPM, ['-png', '-gray', '-r', '60', file, join(dir, 'page')]);
    const pages = readdirSync(dir)
      .filter((name) => name.endsWith('.png'))
      .sort();
    // Title page, identity, the SBOM of 70 components over more than one page.
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const page of pages) {
      expect(inkedFraction(readFileSync(join(dir, page))), page).toBeGreaterThan(0.05);
    }
    // CRA_KEEP_PAGE_IMAGE=docs/images/cra-report-page.png refreshes the image in docs/cra.md.
    const keep = process.env.CRA_KEEP_PAGE_IMAGE;
    if (keep) {
      execFileSync(PDFTOPPM, [
        '-png',
        '-r',
        '90',
        '-f',
        '2',
        '-l',
        '2',
        '-singlefile',
        file,
        join(dir, 'keep'),
      ]);
      copyFileSync(join(dir, 'keep.png'), keep);
      copyFileSync(file, `${keep}.pdf`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scanEndRecorder } from '../../../test/support/job-observer';
import { cycloneDxValidator, schemaErrors } from '../../../test/support/sbom-schemas';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
  twoTenants,
} from '../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS } from '../../background-jobs';
import { newId } from '../../db/ids';

const FIXTURES = join(import.meta.dirname, '..', '..', 'sbom', '__fixtures__');
const fixtureText = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

let t: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  t = await createTestApp();
  ({ a, b } = await twoTenants(t, 'enterprise', ['Tenant A', 'Tenant B']));
});
afterAll(async () => t?.close());

/**
 * Runs the SBOM jobs only: the subscribers of `dependencies.changed` (matching, enrichment) are
 * other domains' and are exercised once, in the first test; here they would only cost time.
 */
const runSbomJobs = () => t.runJobs({ only: ['sbom.import', 'sbom.export'] });

/** A repository row as an import would leave it (the repositories API is another domain's). */
function repository(tenant: TestTenant, name = `repo-${newId().slice(-8)}`) {
  return insertRepository(t, tenant.tenantId, name, {
    full_name: `octo-org/${name}`,
    clone_url: `https://scm.example.test/octo-org/${name}.git`,
    web_url: `https://scm.example.test/octo-org/${name}`,
  });
}

const importSbom = (
  token: string,
  repositoryId: string,
  body: string | object,
  contentType = 'application/json',
) =>
  t.as(token, {
    method: 'POST',
    url: `/api/v1/repositories/${repositoryId}/sbom/import`,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function storedDependencies(repositoryId: string) {
  const rows = await t.database.system
    .selectFrom('repository_dependencies')
    .select([
      'ecosystem',
      'name',
      'version',
      'direct',
      'parents',
      'scope',
      'file',
      'scan_id',
      'purl',
    ])
    .where('repository_id', '=', repositoryId)
    .execute();
  return rows.sort((x, y) => (`${x.ecosystem}/${x.name}` < `${y.ecosystem}/${y.name}` ? -1 : 1));
}

async function scanOf(scanId: string) {
  return t.database.system
    .selectFrom('scans')
    .selectAll()
    .where('id', '=', scanId)
    .executeTakeFirstOrThrow();
}

async function logsOf(scanId: string) {
  const rows = await t.database.system
    .selectFrom('scan_logs')
    .select(['level', 'message'])
    .where('scan_id', '=', scanId)
    .orderBy('logged_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => `${row.level}: ${row.message}`);
}

async function counts(repositoryId: string) {
  const scans = await t.database.system
    .selectFrom('scans')
    .select('id')
    .where('repository_id', '=', repositoryId)
    .execute();
  const imports = await t.database.system
    .selectFrom('sbom_imports')
    .select('id')
    .where('repository_id', '=', repositoryId)
    .execute();
  const outbox = await t.database.system.selectFrom('job_outbox').select('id').execute();
  return { scans: scans.length, imports: imports.length, outbox: outbox.length };
}

describe('POST /api/v1/repositories/{repositoryId}/sbom/import', () => {
  test('cdxgen CycloneDX 1.5: 202 with the scan, then the job stores the graph and completes the scan', async () => {
    const repositoryId = await repository(a);
    const body = fixtureText('cdxgen-cyclonedx-1.5.json');
    const res = await importSbom(a.token, repositoryId, body);
    expect(res.statusCode).toBe(202);
    const accepted = res.json();
    expect(accepted).toEqual({
      importId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      scanId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      repositoryId,
      state: 'queued',
      trigger: 'sbom',
      format: 'CycloneDX',
      specVersion: '1.5',
      tool: 'cdxgen 10.0.5',
      componentCount: 7,
      queuedAtUtc: expect.stringMatching(/Z$/),
    });
    expect((await scanOf(accepted.scanId)).state).toBe('queued');
    const record = await t.database.system
      .selectFrom('sbom_imports')
      .selectAll()
      .where('id', '=', accepted.importId)
      .executeTakeFirstOrThrow();
    expect(record.document_sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(record.document_bytes).toBe(Buffer.byteLength(body));

    const { observer, ends } = scanEndRecorder();
    t.jobDeps.observe = observer;
    const ran = await t.runJobs();
    t.jobDeps.observe = undefined;
    expect(ran).toContain('sbom.import');
    // The import that completed the scan reported it (docs/operations.md#metrics).
    expect(ends).toEqual(['completed']);
    // Everything that follows a scan follows an import: each subscriber of the event ran.
    for (const subscriber of EVENT_SUBSCRIPTIONS['dependencies.changed'] ?? [])
      expect(ran).toContain(subscriber);
    const scan = await scanOf(accepted.scanId);
    expect(scan).toMatchObject({
      state: 'completed',
      trigger: 'sbom',
      dependency_count: 7,
      counts_by_ecosystem: { npm: 7 },
      error: null,
    });
    expect(scan.finished_at).toBeInstanceOf(Date);
    const deps = await storedDependencies(repositoryId);
    expect(deps.map((d) => [d.name, d.version, d.direct, [...d.parents].sort(), d.scope])).toEqual([
      ['@babel/core', '7.23.9', true, ['@babel/helper-compilation-targets'], 'optional'],
      ['@babel/helper-compilation-targets', '7.23.6', false, ['@babel/core'], 'optional'],
      ['body-parser', '1.20.1', false, ['express'], 'runtime'],
      ['debug', '2.6.9', false, ['body-parser', 'express', 'ms'], 'runtime'],
      ['express', '4.18.2', true, [], 'runtime'],
      ['jsonstream', '1.3.5', true, [], 'runtime'],
      ['ms', '2.0.0', false, ['debug'], 'runtime'],
    ]);
    expect(new Set(deps.map((d) => d.file))).toEqual(new Set(['sbom:cyclonedx-1.5']));
    expect(new Set(deps.map((d) => d.scan_id))).toEqual(new Set([accepted.scanId]));
    // The packages are catalogued like a scan's.
    const catalogued = await t.database.system
      .selectFrom('packages')
      .select('purl')
      .where('ecosystem', '=', 'npm')
      .where('name', 'in', ['express', '@babel/core'])
      .execute();
    expect(catalogued.map((p) => p.purl).sort()).toEqual([
      'pkg:npm/%40babel/core',
      'pkg:npm/express',
    ]);
    const repo = await t.database.system
      .selectFrom('repositories')
      .select(['last_scan_id'])
      .where('id', '=', repositoryId)
      .executeTakeFirstOrThrow();
    expect(repo.last_scan_id).toBe(accepted.scanId);
    expect(await logsOf(accepted.scanId)).toEqual([
      'info: read CycloneDX 1.5 (cdxgen 10.0.5): 7 components, 10 dependency edges',
      'info: stored 7 dependencies (npm 7) from 7 of 7 components; scan completed',
      // The evaluation after the import's exposures were matched (docs/policies.md#ci-gate).
      'info: policies evaluated: no enabled policy applies',
    ]);
  });

  test.each([
    [
      'syft-cyclonedx-1.4.json',
      'application/vnd.cyclonedx+json',
      'sbom:cyclonedx-1.4',
      { npm: 2, PyPI: 2, Go: 1 },
      2,
    ],
    [
      'cdxgen-cyclonedx-1.6.json',
      'application/vnd.cyclonedx+json; version=1.6',
      'sbom:cyclonedx-1.6',
      { Maven: 3, Go: 1, Docker: 1 },
      1,
    ],
    ['syft-spdx-2.3.json', 'application/spdx+json', 'sbom:spdx-2.3', { PyPI: 4, Cargo: 1 }, 1],
    [
      'github-dependency-graph-spdx-2.3.json',
      'application/json',
      'sbom:spdx-2.3',
      { npm: 3, RubyGems: 1, Composer: 1, NuGet: 1 },
      1,
    ],
  ])(
    '%s: stored by ecosystem, skipped components reported as warnings',
    async (name, type, file, byEcosystem, warnings) => {
      const repositoryId = await repository(a);
      const res = await importSbom(a.token, repositoryId, fixtureText(name), type);
      expect(res.statusCode).toBe(202);
      await runSbomJobs();
      const scan = await scanOf(res.json().scanId);
      expect(scan.state).toBe('completed');
      expect(scan.counts_by_ecosystem).toEqual(byEcosystem);
      const deps = await storedDependencies(repositoryId);
      expect(new Set(deps.map((d) => d.file))).toEqual(new Set([file]));
      const logs = await logsOf(res.json().scanId);
      expect(logs.filter((line) => line.startsWith('warn:'))).toHaveLength(warnings);
      expect(logs.some((line) => /skipped/.test(line))).toBe(true);
    },
  );

  test('a new import replaces the dependencies of the previous one', async () => {
    const repositoryId = await repository(a);
    await importSbom(a.token, repositoryId, fixtureText('cdxgen-cyclonedx-1.5.json'));
    await runSbomJobs();
    const second = await importSbom(a.token, repositoryId, fixtureText('syft-spdx-2.3.json'));
    expect(second.statusCode).toBe(202);
    await runSbomJobs();
    const deps = await storedDependencies(repositoryId);
    expect(deps.map((d) => d.name)).toEqual([
      'serde',
      'charset-normalizer',
      'requests',
      'ruamel-yaml',
      'urllib3',
    ]);
    expect(new Set(deps.map((d) => d.scan_id))).toEqual(new Set([second.json().scanId]));
  });

  test('409 while a scan of the repository is queued; nothing more is stored', async () => {
    const repositoryId = await repository(a);
    const first = await importSbom(a.token, repositoryId, fixtureText('syft-cyclonedx-1.4.json'));
    expect(first.statusCode).toBe(202);
    const before = await counts(repositoryId);
    const second = await importSbom(a.token, repositoryId, fixtureText('syft-cyclonedx-1.4.json'));
    expect(second.statusCode).toBe(409);
    expect(await counts(repositoryId)).toEqual(before);
    await runSbomJobs();
  });

  test('a scan cancelled before its job runs stores nothing', async () => {
    const repositoryId = await repository(a);
    const res = await importSbom(a.token, repositoryId, fixtureText('syft-cyclonedx-1.4.json'));
    await t.database.system
      .updateTable('scans')
      .set({ state: 'cancelled' })
      .where('id', '=', res.json().scanId)
      .execute();
    const { observer, ends } = scanEndRecorder();
    t.jobDeps.observe = observer;
    await runSbomJobs();
    t.jobDeps.observe = undefined;
    // The job ended nothing: the cancel did, before it ran.
    expect(ends).toEqual([]);
    expect(await storedDependencies(repositoryId)).toEqual([]);
    expect((await scanOf(res.json().scanId)).state).toBe('cancelled');
  });

  test.each([
    ['not JSON', '{"bomFormat": "CycloneDX", ', 400, null],
    ['a JSON array', '[]', 400, null],
    ['JSON that is no SBOM', '{"name": "x"}', 400, 'bomFormat'],
    [
      'an unsupported CycloneDX version',
      '{"bomFormat":"CycloneDX","specVersion":"1.3"}',
      400,
      'specVersion',
    ],
    ['an SPDX tag-value document sent as JSON', '{"spdxVersion":"SPDX-2.1"}', 400, 'spdxVersion'],
    [
      'a component without a name',
      '{"bomFormat":"CycloneDX","specVersion":"1.5","components":[{"type":"library","purl":"pkg:npm/a@1.0.0"}]}',
      422,
      'components[0].name',
    ],
    [
      'a malformed SPDX relationship',
      '{"spdxVersion":"SPDX-2.3","packages":[],"relationships":[{"spdxElementId":5,"relationshipType":"DEPENDS_ON","relatedSpdxElement":"SPDXRef-a"}]}',
      422,
      'relationships[0].spdxElementId',
    ],
    [
      'a prototype-polluting key',
      '{"bomFormat":"CycloneDX","specVersion":"1.6","__proto__":{"x":1}}',
      400,
      null,
    ],
  ])('%s: a problem, nothing stored', async (_label, body, status, key) => {
    const repositoryId = await repository(a);
    const before = await counts(repositoryId);
    const res = await importSbom(a.token, repositoryId, body);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    if (key) expect(res.json().errors).toHaveProperty([key]);
    expect(await counts(repositoryId)).toEqual(before);
  });

  test('a deeply nested document is refused with 422, not a crash', async () => {
    const repositoryId = await repository(a);
    const depth = 5000;
    const body = `{"bomFormat":"CycloneDX","specVersion":"1.6","components":[${'{"name":"n","components":['.repeat(depth)}{"name":"leaf"}${']}'.repeat(depth)}]}`;
    const res = await importSbom(a.token, repositoryId, body);
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json().errors)).toMatch(/deeper than 32 levels/);
  });

  test('415 for other media types; 403 for a viewer; 404 for an unknown repository', async () => {
    const repositoryId = await repository(a);
    const xml = await importSbom(a.token, repositoryId, '<bom/>', 'application/xml');
    expect(xml.statusCode).toBe(415);
    const viewer = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/api-tokens',
      payload: { name: 'viewer', roleScopeJson: '{"roles":["viewer"]}', expiresAtUtc: null },
    });
    const denied = await importSbom(
      viewer.json().rawSecret,
      repositoryId,
      fixtureText('syft-cyclonedx-1.4.json'),
    );
    expect(denied.statusCode).toBe(403);
    const unknown = await importSbom(a.token, newId(), fixtureText('syft-cyclonedx-1.4.json'));
    expect(unknown.statusCode).toBe(404);
    const malformedId = await importSbom(
      a.token,
      'not-a-uuid',
      fixtureText('syft-cyclonedx-1.4.json'),
    );
    expect(malformedId.statusCode).toBe(400);
  });

  test('another tenant gets 404 for the repository and nothing is stored', async () => {
    const repositoryId = await repository(a);
    const before = await counts(repositoryId);
    const res = await importSbom(b.token, repositoryId, fixtureText('syft-cyclonedx-1.4.json'));
    expect(res.statusCode).toBe(404);
    expect(await counts(repositoryId)).toEqual(before);
  });
});

describe('limits', () => {
  let small: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    // The same database, a configuration with small limits.
    small = await createTestApp(
      { sbom: { importMaxBytes: 4096, maxComponents: 3 } },
      { database: t.database },
    );
    tenant = await small.createTenant('enterprise', 'Limits');
  });
  afterAll(async () => small?.app.close());

  test('413 above the import body limit, larger than the general limit applies per route', async () => {
    const repositoryId = await repository(tenant);
    const big = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      padding: 'x'.repeat(5000),
    });
    const res = await small.as(tenant.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/sbom/import`,
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(res.statusCode).toBe(413);
  });

  test('422 above the component limit', async () => {
    const repositoryId = await repository(tenant);
    const components = Array.from({ length: 4 }, (_, i) => ({
      name: `p${i}`,
      purl: `pkg:npm/p${i}@1.0.0`,
    }));
    const res = await small.as(tenant.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/sbom/import`,
      payload: { bomFormat: 'CycloneDX', specVersion: '1.6', components },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.components[0]).toMatch(/more than 3 components/);
  });

  test('the general 1 MiB body limit does not apply to imports', async () => {
    const repositoryId = await repository(a);
    const components = Array.from({ length: 12_000 }, (_, i) => ({
      type: 'library',
      name: `package-number-${i}`,
      version: '1.0.0',
      purl: `pkg:npm/package-number-${i}@1.0.0`,
      description: 'padding padding padding padding padding',
    }));
    const body = JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components });
    expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024);
    const res = await importSbom(a.token, repositoryId, body);
    expect(res.statusCode).toBe(202);
    await runSbomJobs();
    expect((await scanOf(res.json().scanId)).dependency_count).toBe(12_000);
  });
});

const requestExport = (token: string, repositoryId: string, format: unknown) =>
  t.as(token, {
    method: 'POST',
    url: `/api/v1/repositories/${repositoryId}/sbom/exports`,
    payload: { format },
  });

/** A repository whose dependencies came from an import of `fixture`. */
async function importedRepository(tenant: TestTenant, fixture: string) {
  const repositoryId = await repository(tenant);
  const res = await importSbom(tenant.token, repositoryId, fixtureText(fixture));
  expect(res.statusCode).toBe(202);
  await runSbomJobs();
  return repositoryId;
}

async function exportDocument(token: string, repositoryId: string, format: string) {
  const created = await requestExport(token, repositoryId, format);
  expect(created.statusCode).toBe(202);
  await runSbomJobs();
  const download = await t.as(token, {
    method: 'GET',
    url: `/api/v1/sbom-exports/${created.json().exportId}/download`,
  });
  expect(download.statusCode).toBe(200);
  return { exportId: created.json().exportId as string, text: download.body, download };
}

/** (ecosystem, name, version, direct, parents): what a round trip must keep. */
async function dependencySet(repositoryId: string) {
  return (await storedDependencies(repositoryId))
    .map(
      (d) => `${d.ecosystem}|${d.name}|${d.version}|${d.direct}|${[...d.parents].sort().join(',')}`,
    )
    .sort();
}

describe('SBOM exports', () => {
  test('CycloneDX 1.6: 202 queued, 409 until ready, then a schema-valid document of the stored state', async () => {
    const repositoryId = await importedRepository(a, 'cdxgen-cyclonedx-1.5.json');
    const created = await requestExport(a.token, repositoryId, 'cyclonedx-1.6');
    expect(created.statusCode).toBe(202);
    const exportId = created.json().exportId;
    expect(created.json()).toEqual({
      exportId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      repositoryId,
      format: 'cyclonedx-1.6',
      state: 'queued',
      scanId: null,
      componentCount: null,
      sizeBytes: null,
      sha256: null,
      error: null,
      createdAtUtc: expect.stringMatching(/Z$/),
      startedAtUtc: null,
      finishedAtUtc: null,
      downloadUrl: null,
    });
    const early = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/sbom-exports/${exportId}/download`,
    });
    expect(early.statusCode).toBe(409);
    expect(early.headers['content-type']).toMatch(/problem\+json/);

    await runSbomJobs();
    const state = await t.as(a.token, { method: 'GET', url: `/api/v1/sbom-exports/${exportId}` });
    expect(state.json()).toMatchObject({
      state: 'completed',
      componentCount: 7,
      downloadUrl: `/api/v1/sbom-exports/${exportId}/download`,
      finishedAtUtc: expect.stringMatching(/Z$/),
    });
    const download = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/sbom-exports/${exportId}/download`,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^application\/vnd\.cyclonedx\+json/);
    expect(download.headers['content-disposition']).toMatch(/attachment; filename=".+\.cdx\.json"/);
    expect(state.json().sizeBytes).toBe(Buffer.byteLength(download.body));
    expect(state.json().sha256).toBe(createHash('sha256').update(download.body).digest('hex'));
    const document = JSON.parse(download.body);
    const validate = cycloneDxValidator('1.6');
    expect(validate(document), schemaErrors(validate).join('\n')).toBe(true);
    expect(document.metadata.component).toMatchObject({
      type: 'application',
      name: expect.stringMatching(/^octo-org\//),
    });
    expect(document.metadata.timestamp).toBe(`${state.json().createdAtUtc.slice(0, 19)}Z`);
    expect(document.components.map((c: { purl: string }) => c.purl).sort()).toEqual([
      'pkg:npm/%40babel/core@7.23.9',
      'pkg:npm/%40babel/helper-compilation-targets@7.23.6',
      'pkg:npm/body-parser@1.20.1',
      'pkg:npm/debug@2.6.9',
      'pkg:npm/express@4.18.2',
      'pkg:npm/jsonstream@1.3.5',
      'pkg:npm/ms@2.0.0',
    ]);
    const root = document.dependencies.find(
      (d: { ref: string }) => d.ref === document.metadata.component['bom-ref'],
    );
    expect(root.dependsOn.sort()).toEqual([
      'pkg:npm/%40babel/core@7.23.9',
      'pkg:npm/express@4.18.2',
      'pkg:npm/jsonstream@1.3.5',
    ]);
  });

  test('SPDX 2.3: required fields, valid ids, every relationship resolves, NOASSERTION without a known licence', async () => {
    const repositoryId = await importedRepository(a, 'github-dependency-graph-spdx-2.3.json');
    const { text, download } = await exportDocument(a.token, repositoryId, 'spdx-2.3');
    expect(download.headers['content-type']).toMatch(/^application\/spdx\+json/);
    const document = JSON.parse(text);
    expect(document).toMatchObject({
      spdxVersion: 'SPDX-2.3',
      dataLicense: 'CC0-1.0',
      SPDXID: 'SPDXRef-DOCUMENT',
    });
    expect(document.creationInfo.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(document.creationInfo.creators[0]).toMatch(/^Tool: driftwatch-\d+\.\d+\.\d+/);
    expect(document.documentNamespace).toMatch(/^https:\/\/[^#\s]+$/);
    const ids = new Set<string>(document.packages.map((p: { SPDXID: string }) => p.SPDXID));
    expect(ids.size).toBe(document.packages.length);
    for (const id of ids) expect(id).toMatch(/^SPDXRef-[A-Za-z0-9.-]+$/);
    for (const r of document.relationships) {
      expect(r.spdxElementId === 'SPDXRef-DOCUMENT' || ids.has(r.spdxElementId)).toBe(true);
      expect(ids.has(r.relatedSpdxElement)).toBe(true);
    }
    expect(document.packages).toHaveLength(7);
    const lodash = document.packages.find((p: { name: string }) => p.name === 'lodash');
    expect(lodash).toMatchObject({
      versionInfo: '^4.17.0',
      licenseDeclared: 'NOASSERTION',
      externalRefs: [{ referenceType: 'purl', referenceLocator: 'pkg:npm/lodash@%5E4.17.0' }],
    });
  });

  test.each(['cyclonedx-1.6', 'spdx-2.3'])(
    'round trip over the API (%s): export → import gives the same dependency set',
    async (format) => {
      for (const fixture of [
        'cdxgen-cyclonedx-1.5.json',
        'cdxgen-cyclonedx-1.6.json',
        'syft-spdx-2.3.json',
      ]) {
        const source = await importedRepository(a, fixture);
        const { text } = await exportDocument(a.token, source, format);
        const target = await repository(a);
        const res = await importSbom(a.token, target, text);
        expect(res.statusCode).toBe(202);
        await runSbomJobs();
        expect(await dependencySet(target)).toEqual(await dependencySet(source));
        expect((await dependencySet(target)).length).toBeGreaterThan(0);
      }
    },
  );

  test('a regenerated document is byte for byte the same (ids and timestamps derive from the export)', async () => {
    const repositoryId = await importedRepository(a, 'cdxgen-cyclonedx-1.6.json');
    const { exportId, text } = await exportDocument(a.token, repositoryId, 'cyclonedx-1.6');
    await t.database.system
      .updateTable('sbom_exports')
      .set({ state: 'queued', document: null })
      .where('id', '=', exportId)
      .execute();
    await runSbomJobs();
    const { runSbomExportJob } = await import('./service');
    await runSbomExportJob(t.jobDeps, {
      version: 1,
      tenantId: a.tenantId,
      correlationId: null,
      data: { exportId },
    });
    const again = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/sbom-exports/${exportId}/download`,
    });
    expect(again.body).toBe(text);
  });

  test('a repository without stored dependencies exports a valid, empty document', async () => {
    const repositoryId = await repository(a);
    const { text } = await exportDocument(a.token, repositoryId, 'cyclonedx-1.6');
    const document = JSON.parse(text);
    const validate = cycloneDxValidator('1.6');
    expect(validate(document), schemaErrors(validate).join('\n')).toBe(true);
    expect(document.components).toEqual([]);
  });

  test('400 for an unsupported or missing format; formats are case-insensitive', async () => {
    const repositoryId = await repository(a);
    for (const format of ['cyclonedx-1.4', 'spdx-3.0', 'xml', '']) {
      const res = await requestExport(a.token, repositoryId, format);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toHaveProperty(['format']);
    }
    const missing = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/sbom/exports`,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toHaveProperty(['format']);
    const upper = await requestExport(a.token, repositoryId, 'CycloneDX-1.6');
    expect(upper.statusCode).toBe(202);
    expect(upper.json().format).toBe('cyclonedx-1.6');
    await runSbomJobs();
  });

  test('another tenant gets 404 for the repository, the export, its download and the list', async () => {
    const repositoryId = await importedRepository(a, 'syft-cyclonedx-1.4.json');
    const { exportId } = await exportDocument(a.token, repositoryId, 'spdx-2.3');
    const create = await requestExport(b.token, repositoryId, 'spdx-2.3');
    expect(create.statusCode).toBe(404);
    for (const url of [
      `/api/v1/sbom-exports/${exportId}`,
      `/api/v1/sbom-exports/${exportId}/download`,
      `/api/v1/repositories/${repositoryId}/sbom/exports`,
    ]) {
      const res = await t.as(b.token, { method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
    const listA = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/sbom/exports`,
    });
    expect(listA.json().items.map((i: { exportId: string }) => i.exportId)).toContain(exportId);
    const unknown = await t.as(a.token, { method: 'GET', url: `/api/v1/sbom-exports/${newId()}` });
    expect(unknown.statusCode).toBe(404);
  });

  test('credentials in a clone URL never reach a document', async () => {
    const repositoryId = newId();
    await t.database.system
      .insertInto('repositories')
      .values({
        tenant_id: a.tenantId,
        id: repositoryId,
        provider: 'git',
        name: 'private',
        full_name: 'octo-org/private',
        clone_url: 'https://deploy:s3cr3t-t0ken@scm.example.test/octo-org/private.git',
      })
      .execute();
    for (const format of ['cyclonedx-1.6', 'spdx-2.3']) {
      const { text } = await exportDocument(a.token, repositoryId, format);
      expect(text).not.toContain('s3cr3t-t0ken');
      expect(text).toContain('https://scm.example.test/octo-org/private.git');
    }
  });

  test('403 when the plan lacks sbom_export', async () => {
    const free = await t.createTenant('free', 'Free');
    const repositoryId = await repository(free);
    const res = await requestExport(free.token, repositoryId, 'cyclonedx-1.6');
    expect(res.statusCode).toBe(403);
    // Importing is not an export: the free plan may import.
    const imported = await importSbom(
      free.token,
      repositoryId,
      fixtureText('syft-cyclonedx-1.4.json'),
    );
    expect(imported.statusCode).toBe(202);
    await runSbomJobs();
  });

  test('licences the catalogue knows are written; others are NOASSERTION', async () => {
    const present = await t.database.pool.query<{ present: boolean }>(
      "SELECT to_regclass('package_metadata') IS NOT NULL AS present",
    );
    const repositoryId = await importedRepository(a, 'syft-spdx-2.3.json');
    if (present.rows[0]?.present) {
      const requests = await t.database.system
        .selectFrom('packages')
        .select('id')
        .where('ecosystem', '=', 'PyPI')
        .where('name', '=', 'requests')
        .executeTakeFirstOrThrow();
      await t.database.pool.query(
        `INSERT INTO package_metadata (package_id, status, licence, fetched_at, changed_at)
         VALUES ($1, 'found', 'Apache-2.0', now(), now())
         ON CONFLICT (package_id) DO UPDATE SET licence = 'Apache-2.0'`,
        [requests.id],
      );
    }
    const { text } = await exportDocument(a.token, repositoryId, 'spdx-2.3');
    const packages = JSON.parse(text).packages as { name: string; licenseDeclared: string }[];
    const licenceOf = (name: string) => packages.find((p) => p.name === name)?.licenseDeclared;
    expect(licenceOf('requests')).toBe(present.rows[0]?.present ? 'Apache-2.0' : 'NOASSERTION');
    expect(licenceOf('urllib3')).toBe('NOASSERTION');
  });
});

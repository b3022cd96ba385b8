import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRepository } from '../../../test/support/exposures';
import { createGitRepository, type GitFixture } from '../../../test/support/git-fixtures';
import { cycloneDxValidator, schemaErrors } from '../../../test/support/sbom-schemas';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../test/support/tls-certificate';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { queueScan } from '../scans/service';

/**
 * The quantum inventory end to end (docs/quantum.md): a scan of a real git repository finds the
 * public-key uses in its source, the key and certificate committed to it and the cryptography
 * library it depends on; triage survives a rescan; a use that left is `fixed`; another tenant
 * gets 404 and a plan without the area 403.
 */

const KEYS_JS = [
  "const crypto = require('node:crypto');",
  '// RSA keys for the legacy partner API',
  'function legacyKeys() {',
  "  return crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });",
  '}',
  "const digest = crypto.createHash('sha256').update('x').digest('hex');",
  'module.exports = { legacyKeys, digest };',
  '',
].join('\n');

/** Hashes and a symmetric cipher, no public-key API: CBOM algorithms, never findings. */
const DIGEST_JS = [
  "const { createHash, createCipheriv, randomBytes } = require('node:crypto');",
  "const etag = (body) => createHash('sha512').update(body).digest('base64');",
  "const seal = (key, data) => createCipheriv('aes-256-gcm', key, randomBytes(12)).update(data);",
  'module.exports = { etag, seal };',
  '',
].join('\n');

const PACKAGE_JSON = JSON.stringify({
  name: 'quantum-fixture',
  version: '1.0.0',
  dependencies: { 'node-forge': '1.3.1', lodash: '4.17.21' },
});

interface FindingItem {
  findingId: string;
  primitive: string;
  algorithm: string;
  keySize: number | null;
  classification: string;
  severity: string;
  status: string;
  file: string | null;
  line: number | null;
  snippet: string | null;
  purl: string | null;
  scanId: string;
  firstSeenScanId: string;
}

describe('quantum inventory of a scanned repository', () => {
  let t: TestApp;
  let a: TestTenant;
  let other: TestTenant;
  let repo: GitFixture;
  let certificate: SelfSignedCertificate;
  let repositoryId: string;

  const scan = async () => {
    const { scan: queued } = await withTenant(t.database, a.tenantId, (db) =>
      queueScan(db, { tenantId: a.tenantId, repositoryId, trigger: 'manual', correlationId: 'q' }),
    );
    await t.runJobs();
    return queued.id;
  };
  const findings = async (query = '') => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/findings${query}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: FindingItem[]; totalEstimate: number };
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    other = await t.createTenant('enterprise', 'B');
    certificate = selfSignedCertificate('quantum.test', ['DNS:quantum.test']);
    repo = createGitRepository({
      'package.json': PACKAGE_JSON,
      'src/keys.js': KEYS_JS,
      'src/digest.js': DIGEST_JS,
      'deploy/server.pem': certificate.cert.toString('utf8'),
      'deploy/server.key': certificate.key.toString('utf8'),
      'node_modules/vendored/index.js': "require('crypto').generateKeyPairSync('rsa');\n",
    });
    repositoryId = await insertRepository(t, a.tenantId, 'quantum', {
      full_name: 'fixtures/quantum',
      clone_url: repo.url,
      default_branch: 'main',
    });
  });
  afterAll(async () => {
    repo.remove();
    certificate.remove();
    await t.close();
  });

  it('finds source uses, key material and crypto libraries, and lists the certificates', async () => {
    const scanId = await scan();
    const { items, totalEstimate } = await findings();
    expect(totalEstimate).toBe(items.length);
    const source = items.find((f) => f.primitive === 'key-generation');
    expect(source).toMatchObject({
      algorithm: 'RSA',
      keySize: 1024,
      classification: 'weak',
      severity: 'high',
      status: 'open',
      file: 'src/keys.js',
      line: 4,
      snippet: "return crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });",
      scanId,
      firstSeenScanId: scanId,
    });
    expect(items.find((f) => f.primitive === 'key-material')).toMatchObject({
      file: 'deploy/server.key',
      algorithm: 'RSA',
      keySize: 2048,
      classification: 'deprecated-2030',
    });
    expect(items.find((f) => f.primitive === 'library')).toMatchObject({
      algorithm: 'RSA',
      purl: expect.stringContaining('pkg:npm/node-forge'),
    });
    // Vendored code, the comment and the hash are not findings; nor is the key's text stored.
    expect(items.map((f) => f.file)).not.toContain('node_modules/vendored/index.js');
    expect(items).toHaveLength(3);
    expect(JSON.stringify(items)).not.toContain('PRIVATE KEY-----\n');

    const certs = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/certificates?provenance=repository-file`,
    });
    expect(certs.statusCode, certs.body).toBe(200);
    expect(certs.json().items).toMatchObject([
      {
        subject: expect.stringContaining('CN=quantum.test'),
        keyAlgorithm: 'RSA',
        keySize: 2048,
        file: 'deploy/server.pem',
        line: 1,
        provenance: 'repository-file',
        classification: 'deprecated-2030',
        expired: false,
        fingerprintSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    const weak = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/certificates?classification=weak`,
    });
    expect(weak.json().items).toEqual([]);
    expect((await findings('?severity=high')).items.map((f) => f.primitive)).toEqual([
      'key-generation',
    ]);

    const cbom = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/cbom`,
    });
    expect(cbom.statusCode, cbom.body).toBe(200);
    expect(cbom.headers['content-type']).toMatch(/application\/vnd\.cyclonedx\+json/);
    const validate = cycloneDxValidator('1.6');
    expect(validate(cbom.json()), schemaErrors(validate).join('\n')).toBe(true);
    const names = (cbom.json().components as { name: string; type: string }[]).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['RSA-1024', 'SHA-256']));
  });

  it('records the algorithms of a file that only hashes and encrypts in the CBOM, as no finding', async () => {
    const cbom = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/cbom`,
    });
    expect(cbom.statusCode, cbom.body).toBe(200);
    const components = cbom.json().components as {
      name: string;
      evidence?: { occurrences: { location: string; line: number }[] };
    }[];
    const inDigest = (name: string) =>
      components
        .find((c) => c.name === name)
        ?.evidence?.occurrences.filter((o) => o.location === 'src/digest.js')
        .map((o) => o.line);
    expect(inDigest('SHA-512')).toEqual([2]);
    expect(inDigest('AES-256-GCM')).toEqual([3]);
    expect((await findings()).items.map((f) => f.file)).not.toContain('src/digest.js');
  });

  it('keeps triage across a rescan, and marks a use that left as fixed', async () => {
    const source = (await findings()).items.find((f) => f.primitive === 'key-generation');
    const url = `/api/v1/repositories/${repositoryId}/quantum/findings/${source?.findingId}`;
    const refused = await t.as(a.token, { method: 'PATCH', url, payload: { status: 'fixed' } });
    expect(refused.statusCode, refused.body).toBe(422);
    // Malformed input is a problem body, and changes nothing.
    for (const payload of [{}, { status: 'open', expiresAtUtc: 'soon' }, { status: 'nonsense' }]) {
      const bad = await t.as(a.token, { method: 'PATCH', url, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    const badFilter = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/findings?severity=dire`,
    });
    expect(badFilter.statusCode).toBe(400);
    expect((await findings()).items.find((f) => f.findingId === source?.findingId)?.status).toBe(
      'open',
    );
    const patched = await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { status: 'not_affected', justification: 'code_not_reachable' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ status: 'not_affected' });

    // Lines above the call move it; the finding (and its triage) stays the same one.
    repo.commit({ 'src/keys.js': `// moved down\n\n${KEYS_JS}` });
    const second = await scan();
    const moved = (await findings()).items.find((f) => f.primitive === 'key-generation');
    expect(moved).toMatchObject({
      findingId: source?.findingId,
      status: 'not_affected',
      line: 6,
      scanId: second,
      firstSeenScanId: source?.firstSeenScanId,
    });

    repo.commit({ 'src/keys.js': 'module.exports = {};\n' });
    await scan();
    expect((await findings('?status=fixed')).items).toMatchObject([
      { findingId: source?.findingId, status: 'fixed' },
    ]);
    expect((await findings('?status=open')).items.map((f) => f.primitive).sort()).toEqual([
      'key-material',
      'library',
    ]);
  });

  it("answers 404 for another tenant's repository and finding, 403 without the plan", async () => {
    const { items } = await findings();
    const findingId = items[0]?.findingId;
    const urls = [
      `/api/v1/repositories/${repositoryId}/quantum/findings`,
      `/api/v1/repositories/${repositoryId}/quantum/certificates`,
      `/api/v1/repositories/${repositoryId}/quantum/cbom`,
    ];
    for (const url of urls) {
      expect((await t.as(other.token, { method: 'GET', url })).statusCode, url).toBe(404);
    }
    const patch = await t.as(other.token, {
      method: 'PATCH',
      url: `/api/v1/repositories/${repositoryId}/quantum/findings/${findingId}`,
      payload: { status: 'investigating' },
    });
    expect(patch.statusCode).toBe(404);
    const unknown = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/repositories/${repositoryId}/quantum/findings/${newId()}`,
      payload: { status: 'investigating' },
    });
    expect(unknown.statusCode).toBe(404);

    const team = await t.createTenant('team', 'Team');
    const gated = await t.as(team.token, { method: 'GET', url: urls[0] ?? '' });
    expect(gated.statusCode).toBe(403);
    expect(gated.json().detail).toMatch(/does not include: Post-quantum readiness/);
  });
});

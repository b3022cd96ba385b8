import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as gateCommand } from '../../../cli/commands/gate';
import { insertRepository } from '../../../test/support/exposures';
import { createGitRepository, type GitFixture } from '../../../test/support/git-fixtures';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../test/support/tls-certificate';
import { withTenant } from '../../db/tenant-scope';
import { queueScan } from '../scans/service';
import { compileCondition } from './evaluation/cel';

/**
 * Quantum facts are policy facts (docs/policies.md#repository-conditions): a scan that finds
 * RSA key generation opens a repository violation, the CI gate blocks on it and the IDE verdict
 * says the same; triaging the finding not_affected resolves it through the
 * `quantum.inventory_changed` event (not a direct call); another tenant sees none of it.
 */

const KEYS_JS = [
  "const crypto = require('node:crypto');",
  'function serviceKeys() {',
  "  return crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });",
  '}',
  'module.exports = { serviceKeys };',
  '',
].join('\n');

const PACKAGE_JSON = JSON.stringify({
  name: 'quantum-policy-fixture',
  version: '1.0.0',
  dependencies: { lodash: '4.17.21' },
});

const KEY_GENERATION =
  'quantum.findings.exists(f, f.primitive == "key-generation" && f.classification in ["weak", "deprecated-2030", "disallowed-2035"] && !(f.status in ["not_affected", "false_positive"]))';
const LONG_RSA_CERTIFICATE =
  'quantum.certificates.exists(c, c.keyAlgorithm == "RSA" && c.keySize <= 2048 && c.notAfterYear > 2030)';

interface Violation {
  violationId: string;
  policyId: string;
  status: string;
  blocking: boolean;
  packageName: string;
  ecosystem: string;
  facts: Record<string, unknown>;
}

async function gate(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await gateCommand(argv, { debug: false }, { env, write: (t) => void out.push(t) });
    return { code, stdout: out.join('') };
  } finally {
    error.mockRestore();
  }
}

describe('conditions on quantum facts', () => {
  it('type-check, and may not mix quantum with dependency facts', () => {
    expect(compileCondition(KEY_GENERATION).ok).toBe(true);
    expect(compileCondition(LONG_RSA_CERTIFICATE).ok).toBe(true);
    expect(
      compileCondition('quantum.vulnerableCount > 0 && repository.lifecycle == "active"').ok,
    ).toBe(true);
    const mixed = compileCondition('quantum.vulnerableCount > 0 && dependency.direct');
    expect(mixed).toMatchObject({ ok: false, errors: [expect.stringMatching(/dependency/)] });
    const typo = compileCondition('quantum.findings.exists(f, f.keySise > 0)');
    expect(typo.ok).toBe(false);
  });
});

describe('policies on quantum facts', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let repo: GitFixture;
  let plain: GitFixture;
  let certificate: SelfSignedCertificate;
  let repositoryId: string;
  let otherRepositoryId: string;
  let keyPolicyId: string;
  let certificatePolicyId: string;
  let base: string;

  /** Runs a scan's jobs; counts the evaluations of the whole repository they queued. */
  const scan = async (tenant: TestTenant, id: string) => {
    await withTenant(t.database, tenant.tenantId, (db) =>
      queueScan(db, {
        tenantId: tenant.tenantId,
        repositoryId: id,
        trigger: 'manual',
        correlationId: 'quantum-policy',
      }),
    );
    let whole = 0;
    await t.runJobs({
      onJob: (name, envelope) => {
        const { data } = envelope;
        // Evaluations narrowed to some packages (a dependency's drift) are other facts' own.
        const narrowed = typeof data === 'object' && data !== null && 'packageIds' in data;
        if (name === 'policies.evaluate-repository' && !(narrowed && data.packageIds)) whole += 1;
      },
    });
    return whole;
  };
  const violations = async (tenant: TestTenant, id: string) => {
    const res = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/policy-violations?repositoryId=${id}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as Violation[];
  };
  const createPolicy = async (tenant: TestTenant, payload: Record<string, unknown>) => {
    const res = await t.as(tenant.token, { method: 'POST', url: '/api/v1/policies', payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().policyId as string;
  };
  const verdicts = async (tenant: TestTenant, id: string) => {
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/ide/verdicts:batch',
      payload: { packages: [{ purl: 'pkg:npm/lodash@4.17.21' }], repositoryId: id },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    certificate = selfSignedCertificate('legacy.test', ['DNS:legacy.test'], undefined, {
      days: 3650,
    });
    repo = createGitRepository({
      'package.json': PACKAGE_JSON,
      'src/keys.js': KEYS_JS,
      'deploy/legacy.pem': certificate.cert.toString('utf8'),
    });
    plain = createGitRepository({ 'package.json': PACKAGE_JSON });
    repositoryId = await insertRepository(t, a.tenantId, 'payments', {
      clone_url: repo.url,
      default_branch: 'main',
    });
    otherRepositoryId = await insertRepository(t, b.tenantId, 'plain', {
      clone_url: plain.url,
      default_branch: 'main',
    });
    keyPolicyId = await createPolicy(a, {
      name: 'No quantum-vulnerable key generation in production',
      condition: KEY_GENERATION,
      severity: 'high',
      action: 'block',
      scope: { lifecycleStatuses: ['active'] },
    });
    certificatePolicyId = await createPolicy(a, {
      name: 'No RSA-2048 certificate valid past 2030',
      condition: LONG_RSA_CERTIFICATE,
      severity: 'medium',
      action: 'warn',
    });
    await createPolicy(b, {
      name: 'No quantum-vulnerable key generation',
      condition: KEY_GENERATION,
      severity: 'high',
      action: 'block',
    });
    await t.runJobs();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 300_000);
  afterAll(async () => {
    repo.remove();
    plain.remove();
    certificate.remove();
    await t.close();
  });

  it('refuses a condition mixing quantum and dependency facts (422, as any invalid condition)', async () => {
    const res = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/policies',
      payload: {
        name: 'mixed',
        condition: 'quantum.vulnerableCount > 0 && dependency.name == "lodash"',
        severity: 'low',
        action: 'inform',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('repository condition');
  });

  it('a scan with RSA key generation opens one repository violation per policy', async () => {
    // The scan changed the inventory, and its one evaluation (after matching) reads it: no
    // second evaluation of the whole repository is queued for the inventory's change.
    expect(await scan(a, repositoryId)).toBe(1);
    const found = await violations(a, repositoryId);
    expect(found).toHaveLength(2);
    const keyViolation = found.find((v) => v.policyId === keyPolicyId);
    expect(keyViolation).toMatchObject({
      status: 'open',
      blocking: true,
      ecosystem: 'first-party',
      packageName: 'first-party code',
    });
    // The violation keeps the quantum facts that made it hold.
    const facts = keyViolation?.facts as { quantum: { findings: { algorithm: string }[] } };
    expect(facts.quantum.findings.map((f) => f.algorithm)).toContain('RSA');
    expect(found.find((v) => v.policyId === certificatePolicyId)).toMatchObject({
      status: 'open',
      blocking: false,
    });
  }, 120_000);

  it('the CI gate blocks and the IDE verdict agrees', async () => {
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    const blocked = await gate(['--repository', repositoryId, '--json'], env);
    expect(blocked.code, blocked.stdout).toBe(1);
    expect(JSON.parse(blocked.stdout).findings).toEqual([
      expect.objectContaining({ policyName: 'No quantum-vulnerable key generation in production' }),
    ]);
    const verdict = await verdicts(a, repositoryId);
    expect(verdict.repository).toMatchObject({ repositoryId, verdict: 'block' });
    expect(verdict.repository.policies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ policyId: keyPolicyId, blocking: true, status: 'open' }),
        expect.objectContaining({ policyId: certificatePolicyId, blocking: false }),
      ]),
    );
    // The package asked about is not what the repository condition judges.
    expect(verdict.items[0].verdict).not.toBe('block');
    expect(verdict.items[0].policies).toEqual([]);
  }, 60_000);

  it('triaging the finding not_affected resolves the violation through the fact event', async () => {
    const list = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/findings?status=Open`,
    });
    const finding = (list.json().items as { findingId: string; primitive: string }[]).find(
      (f) => f.primitive === 'key-generation',
    );
    expect(finding).toBeDefined();
    const url = `/api/v1/repositories/${repositoryId}/quantum/findings/${finding?.findingId}`;
    const payload = { status: 'not_affected', justification: 'code_not_reachable' };
    // Another tenant's token cannot triage it.
    expect((await t.as(b.token, { method: 'PATCH', url, payload })).statusCode).toBe(404);
    const patched = await t.as(a.token, { method: 'PATCH', url, payload });
    expect(patched.statusCode, patched.body).toBe(200);
    // Policies are not called by the triage: the violation moves when the event's job runs.
    const before = await violations(a, repositoryId);
    expect(before.find((v) => v.policyId === keyPolicyId)?.status).toBe('open');
    const ran = await t.runJobs();
    expect(ran).toContain('policies.evaluate-repository');
    const after = await violations(a, repositoryId);
    expect(after.find((v) => v.policyId === keyPolicyId)).toMatchObject({
      status: 'resolved',
      blocking: false,
    });
    expect(after.find((v) => v.policyId === certificatePolicyId)?.status).toBe('open');

    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    const passed = await gate(['--repository', repositoryId, '--json'], env);
    expect(passed.code, passed.stdout).toBe(0);
    const verdict = await verdicts(a, repositoryId);
    expect(verdict.repository.verdict).toBe('warn');
    expect(verdict.repository.policies).toEqual([
      expect.objectContaining({ policyId: certificatePolicyId }),
    ]);
  }, 60_000);

  it('a rescan that changes nothing keeps it resolved', async () => {
    expect(await scan(a, repositoryId)).toBe(1);
    const after = await violations(a, repositoryId);
    expect(after.find((v) => v.policyId === keyPolicyId)?.status).toBe('resolved');
  }, 120_000);

  it('another tenant is unaffected', async () => {
    await scan(b, otherRepositoryId);
    expect(await violations(b, otherRepositoryId)).toEqual([]);
    const listed = await t.as(b.token, { method: 'GET', url: '/api/v1/policy-violations' });
    expect(listed.json().items).toEqual([]);
    const verdict = await verdicts(b, otherRepositoryId);
    expect(verdict.repository).toMatchObject({ verdict: 'allow', policies: [] });
    const foreign = await t.as(b.token, {
      method: 'POST',
      url: '/api/v1/ide/verdicts:batch',
      payload: { packages: [{ purl: 'pkg:npm/lodash@4.17.21' }], repositoryId },
    });
    expect(foreign.statusCode).toBe(404);
  }, 120_000);
});

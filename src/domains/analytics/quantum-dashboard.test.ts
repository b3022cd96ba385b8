import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRepository } from '../../../test/support/exposures';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';

/**
 * The global dashboard's quantum readiness (docs/workspace.md#quantum-readiness): findings that
 * count by classification, certificates weak and expiring, TLS endpoints by latest verdict and
 * the readiness share, per repository and for the tenant; null for a plan without `quantum`;
 * another tenant's inventory never counted.
 */

const DAY = 86_400_000;

type Classification = 'weak' | 'deprecated-2030' | 'disallowed-2035' | 'hybrid' | 'quantum-safe';

async function finding(
  db: Kysely<DB>,
  repositoryId: string,
  classification: Classification,
  extra: { status?: 'open' | 'not_affected'; present?: boolean } = {},
) {
  const scanId = newId();
  await db
    .insertInto('quantum_findings')
    .values({
      id: newId(),
      repository_id: repositoryId,
      finding_key: newId(),
      scan_id: scanId,
      first_seen_scan_id: scanId,
      file: 'src/crypto.js',
      line: 1,
      language: 'javascript',
      primitive: 'key-generation',
      algorithm: classification === 'quantum-safe' ? 'ML-KEM' : 'RSA',
      curve: null,
      key_size: null,
      classification,
      severity: 'medium',
      recommendation: 'ML-KEM-768',
      snippet: null,
      api: null,
      purl: null,
      justification: extra.status === 'not_affected' ? 'code_not_reachable' : null,
      status_reason: null,
      accepted_until: null,
      status_changed_at: null,
      status_changed_by_token_id: null,
      ...(extra.status ? { status: extra.status } : {}),
      ...(extra.present === false ? { present: false } : {}),
    })
    .execute();
}

async function certificate(
  db: Kysely<DB>,
  where: { repositoryId?: string; endpointId?: string },
  classification: Classification,
  notAfter: Date,
) {
  await db
    .insertInto('quantum_certificates')
    .values({
      id: newId(),
      provenance: where.endpointId ? 'tls-observation' : 'repository-file',
      repository_id: where.repositoryId ?? null,
      scan_id: null,
      endpoint_id: where.endpointId ?? null,
      file: where.endpointId ? null : 'deploy/cert.pem',
      line: null,
      subject: 'CN=x',
      issuer: 'CN=x',
      serial_number: '01',
      not_before: new Date(Date.now() - 10 * DAY),
      not_after: notAfter,
      key_algorithm: 'RSA',
      key_size: 2048,
      curve: null,
      signature_algorithm: 'sha256WithRSAEncryption',
      fingerprint_sha256: newId(),
      classification,
      self_signed: true,
      is_ca: false,
      container: null,
    })
    .execute();
}

async function endpoint(
  db: Kysely<DB>,
  host: string,
  repositoryId: string | null,
  state: 'vulnerable' | 'hybrid' | 'unreachable' | null,
) {
  const id = newId();
  await db
    .insertInto('quantum_tls_endpoints')
    .values({
      id,
      host,
      port: 443,
      server_name: host,
      interval_hours: 24,
      repository_id: repositoryId,
    })
    .execute();
  if (state) {
    await db
      .insertInto('quantum_tls_observations')
      .values({ id: newId(), endpoint_id: id, state, certificates: '[]' })
      .execute();
  }
  return id;
}

describe('GET /api/v1/dashboards/global, quantum readiness', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let team: TestTenant;
  let legacy: string;
  let modern: string;

  const dashboard = async (tenant: TestTenant) => {
    const res = await t.as(tenant.token, { method: 'GET', url: '/api/v1/dashboards/global' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    team = await t.createTenant('team', 'Team');
    legacy = await insertRepository(t, a.tenantId, 'legacy');
    modern = await insertRepository(t, a.tenantId, 'modern');
    const other = await insertRepository(t, b.tenantId, 'theirs');
    const now = Date.now();
    await withTenant(t.database, a.tenantId, async (db) => {
      await finding(db, legacy, 'weak');
      await finding(db, legacy, 'deprecated-2030');
      await finding(db, legacy, 'deprecated-2030');
      await finding(db, legacy, 'disallowed-2035', { status: 'not_affected' });
      await finding(db, legacy, 'weak', { present: false });
      await certificate(db, { repositoryId: legacy }, 'weak', new Date(now + 10 * DAY));
      await certificate(db, { repositoryId: legacy }, 'deprecated-2030', new Date(now - DAY));
      await finding(db, modern, 'quantum-safe');
      await finding(db, modern, 'hybrid');
      await finding(db, modern, 'deprecated-2030');
      const linked = await endpoint(db, 'api.modern.test', modern, 'hybrid');
      await certificate(db, { endpointId: linked }, 'deprecated-2030', new Date(now + 400 * DAY));
      await endpoint(db, 'old.test', null, 'vulnerable');
      await endpoint(db, 'down.test', null, 'unreachable');
      await endpoint(db, 'new.test', null, null);
    });
    await withTenant(t.database, b.tenantId, async (db) => {
      await finding(db, other, 'weak');
      await endpoint(db, 'theirs.test', other, 'vulnerable');
    });
  });
  afterAll(async () => t?.close());

  it("counts the tenant's inventory and each repository's, least ready first", async () => {
    const { quantum } = await dashboard(a);
    expect(quantum).toMatchObject({
      findings: {
        unresolved: 6,
        byClassification: {
          weak: 1,
          deprecated2030: 3,
          disallowed2035: 0,
          hybrid: 1,
          quantumSafe: 1,
        },
      },
      certificates: {
        total: 3,
        weak: 1,
        quantumVulnerable: 3,
        expiringWithin30Days: 1,
        expired: 1,
      },
      tlsEndpoints: {
        total: 4,
        byVerdict: { vulnerable: 1, hybrid: 1, unreachable: 1, notProbed: 1, quantumSafe: 0 },
      },
      // 6 findings + 3 certificates + 2 endpoints with a verdict; ready: 2 findings + 1 endpoint.
      assets: { total: 11, ready: 3 },
      readiness: 0.273,
    });
    expect(quantum.repositories.total).toBe(2);
    expect(quantum.repositories.truncated).toBe(false);
    const [first, second] = quantum.repositories.items;
    expect(first).toMatchObject({
      repositoryId: legacy,
      name: 'legacy',
      findings: { unresolved: 3 },
      certificates: { total: 2, expired: 1, expiringWithin30Days: 1 },
      tlsEndpoints: { total: 0 },
      readiness: 0,
    });
    expect(second).toMatchObject({
      repositoryId: modern,
      findings: { unresolved: 3, byClassification: { hybrid: 1, quantumSafe: 1 } },
      // The linked endpoint's chain and verdict count for the repository.
      certificates: { total: 1, quantumVulnerable: 1 },
      tlsEndpoints: { total: 1, byVerdict: { hybrid: 1 } },
      assets: { total: 5, ready: 3 },
      readiness: 0.6,
    });
  });

  it("never counts another tenant's inventory", async () => {
    const { quantum } = await dashboard(b);
    expect(quantum.findings.unresolved).toBe(1);
    expect(quantum.tlsEndpoints.total).toBe(1);
    expect(quantum.repositories.items.map((r: { name: string }) => r.name)).toEqual(['theirs']);
    expect(quantum.readiness).toBe(0);
  });

  it('is null for a plan without the quantum feature, and the rest of the dashboard stays', async () => {
    const body = await dashboard(team);
    expect(body.quantum).toBeNull();
    expect(body.repositories).toBeDefined();
  });

  it('is all zeros, readiness null, for a tenant with no inventory', async () => {
    const empty = await t.createTenant('business', 'Empty');
    const { quantum } = await dashboard(empty);
    expect(quantum).toMatchObject({
      findings: { unresolved: 0 },
      certificates: { total: 0 },
      tlsEndpoints: { total: 0 },
      readiness: null,
      repositories: { total: 0, items: [], truncated: false },
    });
  });
});

import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postQuantumCertificate } from '../../../test/support/crypto-artifacts';
import { insertRepository } from '../../../test/support/exposures';
import { createGitRepository, type GitFixture } from '../../../test/support/git-fixtures';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import {
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../test/support/tls-certificate';
import { withTenant } from '../../db/tenant-scope';
import { queueScan } from '../scans/service';

/**
 * ML-DSA and composite certificates end to end (docs/quantum.md#certificates-and-keys-in-repositories):
 * Node 20 cannot make ML-DSA keys, so a real P-256 certificate is re-encoded with @peculiar/asn1-x509
 * carrying the ML-DSA-65 OID (2.16.840.1.101.3.4.3.18; 1952-byte key, 3309-byte signature, the
 * fact sheet's sizes) or the composite id-MLDSA65-ECDSA-P256-SHA512 (1.3.6.1.5.5.7.6.45) in its
 * SubjectPublicKeyInfo and both signature AlgorithmIdentifiers; committed to a repository and
 * scanned through the real scan path, they are quantum-safe and hybrid, in the certificate list,
 * the CBOM and the policy facts.
 */

const pem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;

interface CertificateItem {
  certificateId: string;
  file: string | null;
  keyAlgorithm: string;
  curve: string | null;
  signatureAlgorithm: string;
  classification: string;
  provenance: string;
}

describe('post-quantum certificates committed to a repository', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let template: SelfSignedCertificate;
  let repo: GitFixture;
  let repositoryId: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    template = selfSignedCertificate('pq.test', ['DNS:pq.test'], undefined, { keyType: 'ec' });
    const der = new X509Certificate(template.cert).raw;
    repo = createGitRepository({
      'README.md': '# pq\n',
      'certs/ml-dsa-65.pem': pem(
        postQuantumCertificate(der, '2.16.840.1.101.3.4.3.18', 1952, 3309),
      ),
      'certs/composite.pem': pem(postQuantumCertificate(der, '1.3.6.1.5.5.7.6.45', 2017, 3381)),
      'certs/classical.pem': template.cert.toString('utf8'),
    });
    repositoryId = await insertRepository(t, a.tenantId, 'pq', {
      clone_url: repo.url,
      default_branch: 'main',
    });
    await withTenant(t.database, a.tenantId, (db) =>
      queueScan(db, { tenantId: a.tenantId, repositoryId, trigger: 'manual', correlationId: 'pq' }),
    );
    await t.runJobs();
  }, 120_000);
  afterAll(async () => {
    repo?.remove();
    template?.remove();
    await t?.close();
  });

  it('classifies the ML-DSA-65 certificate quantum-safe and the composite one hybrid', async () => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/certificates`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as CertificateItem[];
    const byFile = new Map(items.map((c) => [c.file, c]));
    expect(byFile.get('certs/ml-dsa-65.pem')).toMatchObject({
      keyAlgorithm: 'ML-DSA',
      curve: 'ML-DSA-65',
      signatureAlgorithm: 'ML-DSA-65',
      classification: 'quantum-safe',
      provenance: 'repository-file',
    });
    expect(byFile.get('certs/composite.pem')).toMatchObject({
      keyAlgorithm: 'composite',
      curve: 'MLDSA65-ECDSA-P256-SHA512',
      classification: 'hybrid',
    });
    expect(byFile.get('certs/classical.pem')).toMatchObject({
      keyAlgorithm: 'ECDSA',
      classification: 'disallowed-2035',
    });
    const safe = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/certificates?classification=QuantumSafe`,
    });
    expect((safe.json().items as CertificateItem[]).map((c) => c.file)).toEqual([
      'certs/ml-dsa-65.pem',
    ]);
  });

  it('describes ML-DSA-65 in the CBOM at NIST level 3', async () => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/cbom`,
    });
    expect(res.statusCode).toBe(200);
    const components = res.json().components as {
      name: string;
      cryptoProperties?: {
        assetType: string;
        algorithmProperties?: { nistQuantumSecurityLevel?: number };
      };
    }[];
    const mlDsa = components.find(
      (c) => c.cryptoProperties?.assetType === 'algorithm' && c.name.includes('ML-DSA-65'),
    );
    expect(mlDsa?.cryptoProperties?.algorithmProperties?.nistQuantumSecurityLevel).toBe(3);
  });

  it('counts as ready on the dashboard and in the policy facts', async () => {
    const dashboard = await t.as(a.token, { method: 'GET', url: '/api/v1/dashboards/global' });
    const repository = dashboard
      .json()
      .quantum.repositories.items.find(
        (r: { repositoryId: string }) => r.repositoryId === repositoryId,
      );
    expect(repository.certificates).toMatchObject({ total: 3, quantumVulnerable: 1 });
    expect(repository.assets).toEqual({ total: 3, ready: 2 });
    const policy = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/policies',
      payload: {
        name: 'Only post-quantum certificates',
        condition:
          'quantum.certificates.exists(c, !(c.classification in ["quantum-safe", "hybrid"]))',
        severity: 'low',
        action: 'inform',
      },
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const tested = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/policies/${policy.json().policyId}/test`,
      payload: {
        repositoryId,
        condition:
          'quantum.certificates.exists(c, c.keyAlgorithm == "ML-DSA" && c.classification == "quantum-safe")',
      },
    });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json().counts).toMatchObject({ violations: 1 });
  });

  it("another tenant's token gets 404 for the repository's certificates", async () => {
    const res = await t.as(b.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/quantum/certificates`,
    });
    expect(res.statusCode).toBe(404);
  });
});

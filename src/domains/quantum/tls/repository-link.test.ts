import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRepository } from '../../../../test/support/exposures';
import { createTestApp, type TestApp, type TestTenant } from '../../../../test/support/test-app';
import {
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../../test/support/tls-certificate';
import {
  allowLoopbackProbes,
  type LocalServer,
  probeNow,
  startTlsServer,
  watchEndpoint,
} from '../../../../test/support/tls-endpoints';
import { newId } from '../../../db/ids';

/**
 * A watched TLS endpoint linked to a repository (docs/quantum.md#tls-observations): the link is
 * validated against the tenant's repositories (another tenant's id is a 400, as an unknown one),
 * listed, changed and cleared; the chain a probe reads is listed among that repository's
 * certificates with provenance tls-observation, and moves away with the link.
 */

const BASE = '/api/v1/quantum/tls-endpoints';

describe('TLS endpoints linked to a repository', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let certificate: SelfSignedCertificate;
  let server: LocalServer;
  let repositoryId: string;
  let secondRepositoryId: string;
  let foreignRepositoryId: string;

  const certificates = async (tenant: TestTenant, id: string, query = '') => {
    const res = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/repositories/${id}/quantum/certificates${query}`,
    });
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    allowLoopbackProbes(t, a.tenantId);
    certificate = selfSignedCertificate('linked.tls.test', ['DNS:linked.tls.test']);
    server = await startTlsServer(certificate, { minVersion: 'TLSv1.3' });
    repositoryId = await insertRepository(t, a.tenantId, 'api');
    secondRepositoryId = await insertRepository(t, a.tenantId, 'web');
    foreignRepositoryId = await insertRepository(t, b.tenantId, 'theirs');
  });
  afterAll(async () => {
    await server?.close();
    certificate?.remove();
    await t?.close();
  });

  it("refuses another tenant's repository, an unknown one and a malformed id (400)", async () => {
    for (const id of [foreignRepositoryId, newId(), 'not-a-uuid']) {
      const res = await t.as(a.token, {
        method: 'POST',
        url: BASE,
        payload: { host: 'refused.example.com', repositoryId: id },
      });
      expect(res.statusCode, res.body).toBe(400);
      if (id !== 'not-a-uuid') expect(res.json().errors.repositoryId).toBeDefined();
    }
    const list = await t.as(a.token, { method: 'GET', url: BASE });
    expect(list.json().items).toEqual([]);
  });

  it("lists the chain of a linked endpoint among the repository's certificates", async () => {
    const endpointId = await watchEndpoint(t, a.token, {
      host: '127.0.0.1',
      port: server.port,
      serverName: 'linked.tls.test',
      repositoryId,
    });
    const listed = await t.as(a.token, { method: 'GET', url: BASE });
    expect(listed.json().items).toEqual([expect.objectContaining({ endpointId, repositoryId })]);
    await probeNow(t, a.token, endpointId);

    const res = await certificates(a, repositoryId, '?provenance=tls-observation');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({
        subject: 'CN=linked.tls.test',
        provenance: 'tls-observation',
        endpointId,
        keyAlgorithm: 'RSA',
        keySize: 2048,
        file: null,
      }),
    ]);
    expect(
      (await certificates(a, repositoryId, '?provenance=repository-file')).json().items,
    ).toEqual([]);
    expect((await certificates(a, secondRepositoryId)).json().items).toEqual([]);
    // Another tenant sees neither the repository nor the endpoint.
    expect((await certificates(b, repositoryId)).statusCode).toBe(404);
    expect((await t.as(b.token, { method: 'GET', url: `${BASE}/${endpointId}` })).statusCode).toBe(
      404,
    );

    // The link moves: the chain goes with it; another tenant's repository is refused.
    const url = `${BASE}/${endpointId}`;
    const foreign = await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { repositoryId: foreignRepositoryId },
    });
    expect(foreign.statusCode, foreign.body).toBe(400);
    const moved = await t.as(a.token, {
      method: 'PATCH',
      url,
      payload: { repositoryId: secondRepositoryId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().repositoryId).toBe(secondRepositoryId);
    expect((await certificates(a, repositoryId)).json().items).toEqual([]);
    expect((await certificates(a, secondRepositoryId)).json().items).toHaveLength(1);

    const cleared = await t.as(a.token, { method: 'PATCH', url, payload: { repositoryId: null } });
    expect(cleared.json().repositoryId).toBeNull();
    expect((await certificates(a, secondRepositoryId)).json().items).toEqual([]);
  });

  it('an endpoint without a link says null', async () => {
    const endpointId = await watchEndpoint(t, a.token, { host: 'unlinked.example.com' });
    const res = await t.as(a.token, { method: 'GET', url: `${BASE}/${endpointId}` });
    expect(res.json().repositoryId).toBeNull();
  });
});

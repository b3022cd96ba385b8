import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { jobDefinitions } from '../../background-jobs';
import { loadConfig } from '../../config';
import { readRegistryMetadata } from '../status/measurement/measurements';
import { REFRESH } from './jobs';

/** A registry that knows no package (404), on a port that can be closed and opened again. */
function registry() {
  let server: Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      const opened = createServer((_request, response) => response.writeHead(404).end());
      server = opened;
      opened.listen(port, '127.0.0.1', () => {
        port = (opened.address() as AddressInfo).port;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  return { open, close, url: () => `http://127.0.0.1:${port}` };
}

describe('a registry that cannot be reached', () => {
  const pypi = registry();
  let t: TestApp;
  let tenant: TestTenant;
  const warnings: string[] = [];
  const infos: string[] = [];
  let refresh: () => Promise<void>;

  beforeAll(async () => {
    await pypi.open();
    const url = pypi.url();
    await pypi.close();
    t = await createTestApp({ registries: loadConfig({ PYPI_URL: url }).registries });
    tenant = await t.createTenant('enterprise', 'A');
    // One set of job definitions, as one service process has: "once" is per process.
    const definitions = jobDefinitions({
      ...t.jobDeps,
      log: (message) => void infos.push(message),
      warn: (message) => void warnings.push(message),
    });
    const job = definitions.find((d) => d.name === REFRESH.name);
    refresh = async () => {
      await sql`UPDATE package_enrichment SET due_at = now() - interval '1 second'`.execute(
        t.database.system,
      );
      await job?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    };
  });
  afterAll(async () => {
    await t?.close();
    await pypi.close();
  });

  const requests = async () => {
    const list = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/packages?search=requests',
    });
    expect(list.statusCode).toBe(200);
    const [item] = list.json().items;
    const detail = await t.as(tenant.token, {
      method: 'GET',
      url: `/api/v1/packages/${item.packageId}`,
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().metadataPendingReason).toBe(item.metadataPendingReason);
    return item;
  };

  it('says why the package is pending, counts the fetch as failed, and warns once', async () => {
    await storeScan(t, tenant, 'api', [{ ecosystem: 'PyPI', name: 'requests', version: '2.31.0' }]);
    const pending = await requests();
    expect(pending.metadataStatus).toBe('pending');
    // The registry's address is the operator's: tenants are not told it.
    expect(pending.metadataPendingReason).not.toContain('127.0.0.1');
    expect(pending.metadataPendingReason).toMatch(
      /^the PyPI registry cannot be reached; next try at \d{4}-\d\d-\d\dT[\d:.]+Z$/,
    );

    const reading = await readRegistryMetadata(t.database);
    expect(reading.measurement).toEqual({ fetches: 1, failed: 1 });
    expect(reading.detail).toBe('100 % of 1 registry fetches in the last hour failed');

    await refresh();
    await refresh();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^the PyPI registry at ${pypi.url()} cannot be reached \\(PyPI registry: registry unreachable`,
      ),
    );

    await pypi.open();
    await refresh();
    expect(infos).toContain('the PyPI registry answers again');
    const answered = await requests();
    expect(answered.metadataStatus).toBe('not_found');
    expect(answered.metadataPendingReason).toBeNull();
  });

  it('a package no fetch has tried yet says it waits for its first fetch', async () => {
    await storeScan(
      t,
      tenant,
      'web',
      [{ ecosystem: 'PyPI', name: 'requests-toolbelt', version: '1.0.0' }],
      new Date(),
      false,
    );
    const list = await t.as(tenant.token, {
      method: 'GET',
      url: '/api/v1/packages?search=toolbelt',
    });
    expect(list.json().items[0].metadataPendingReason).toBe('waiting for its first registry fetch');
  });
});

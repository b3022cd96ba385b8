import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { describeRegistries } from './index';
import { checkRegistries } from './reachability';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the start-up check of the registries', () => {
  // Answers 404 to everything: an answer, so reachable.
  const answering = createServer((_request, response) => response.writeHead(404).end());
  // Takes the connection and never answers.
  const silent = createServer(() => {});
  let reachable: string;
  let hanging: string;
  let refused: string;

  beforeAll(async () => {
    reachable = await listen(answering);
    hanging = await listen(silent);
    const closed = createServer();
    refused = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await Promise.all(
      [answering, silent].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
    );
  });

  it('names each registry that gives no answer, within the bound, and only those', async () => {
    const { baseUrls } = loadConfig({
      NPM_REGISTRY_URL: reachable,
      PYPI_URL: refused,
      GOPROXY_URL: hanging,
    }).registries;
    const started = performance.now();
    const unreachable = await checkRegistries(baseUrls, 500);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(Object.keys(unreachable).sort()).toEqual(['Go', 'PyPI']);
    expect(unreachable.PyPI).toMatch(/ECONNREFUSED/);
    expect(unreachable.Go).toBe('no answer in time');
  });

  it('the banner says so under the registry line', () => {
    const config = loadConfig({ PYPI_URL: refused });
    const lines = describeRegistries(config, { PyPI: 'connect ECONNREFUSED 127.0.0.1:1' });
    const at = lines.findIndex((line) => line.startsWith('  PyPI '));
    expect(lines[at + 1]).toBe(
      '            cannot be reached (connect ECONNREFUSED 127.0.0.1:1): its packages stay pending until it answers',
    );
    expect(describeRegistries(config).join('\n')).not.toContain('cannot be reached');
  });
});

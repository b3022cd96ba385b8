import { describe, expect, it } from 'vitest';
import {
  type PackageMetadata,
  type RegistryClient,
  RegistryError,
  RetryableRegistryError,
} from '../../ecosystems/registry-types';
import type { JobObserver } from '../job-deps';
import { observeClients } from './observed-clients';

/** A client whose answer per package name is scripted; no network. */
function scriptedClient(answers: Record<string, () => Promise<PackageMetadata | null>>) {
  const client: RegistryClient = {
    ecosystem: 'npm',
    status: { state: 'enabled', baseUrl: 'http://127.0.0.1:1' },
    fetchPackage: (name) => {
      const answer = answers[name];
      if (!answer) throw new Error(`unscripted ${name}`);
      return answer();
    },
  };
  return client;
}

describe('registry fetches reported to the observer', () => {
  it('reports each fetch with its ecosystem and outcome and passes results and errors through', async () => {
    const metadata = { notModified: false } as PackageMetadata;
    const revalidated = { notModified: true } as PackageMetadata;
    const limited = new RetryableRegistryError('429', 30, 429, 'npm');
    const client = scriptedClient({
      fresh: async () => metadata,
      same: async () => revalidated,
      gone: async () => null,
      limited: () => Promise.reject(limited),
      down: () => Promise.reject(new RetryableRegistryError('503', 5, 503, 'npm')),
      offline: () => Promise.reject(new RetryableRegistryError('reset', 5, null, 'npm')),
      huge: () => Promise.reject(new RegistryError('too large', 'npm')),
    });
    const seen: [string, string][] = [];
    const observe: JobObserver = {
      jobFinished: () => {},
      scanFinished: () => {},
      enrichmentFinished: () => {},
      feedFetched: () => {},
      registryFetched: (ecosystem, outcome, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        seen.push([ecosystem, outcome]);
      },
    };
    const observed = observeClients({ npm: client }, observe).npm;
    if (!observed) throw new Error('the npm client is missing');
    expect(observed.status).toEqual(client.status);
    expect(await observed.fetchPackage('fresh')).toBe(metadata);
    expect(await observed.fetchPackage('same')).toBe(revalidated);
    expect(await observed.fetchPackage('gone')).toBeNull();
    await expect(observed.fetchPackage('limited')).rejects.toBe(limited);
    await expect(observed.fetchPackage('down')).rejects.toThrow('503');
    await expect(observed.fetchPackage('offline')).rejects.toThrow('reset');
    await expect(observed.fetchPackage('huge')).rejects.toThrow('too large');
    expect(seen.map(([, outcome]) => outcome)).toEqual([
      'fetched',
      'not_modified',
      'not_found',
      'rate_limited',
      'server_error',
      'unreachable',
      'unusable',
    ]);
    expect(new Set(seen.map(([ecosystem]) => ecosystem))).toEqual(new Set(['npm']));
  });

  it('returns the clients unchanged when nothing observes', () => {
    const clients = { npm: scriptedClient({}) };
    expect(observeClients(clients, undefined)).toBe(clients);
  });
});

import { ecosystems } from './ecosystem-list';
import { createMemoryCache, createRegistryHttp, type RegistryHttpOptions } from './registry-http';
import type {
  RegistriesSettings,
  RegistryCache,
  RegistryClient,
  RegistryHttp,
} from './registry-types';
import type { Ecosystem } from './types';

/**
 * One registry client per ecosystem, all sharing one HTTP layer and response cache. A client
 * whose base URL is unset is still returned, with `status.state === 'disabled'` and the reason.
 */
export function createRegistryClients(
  settings: RegistriesSettings,
  options: {
    cache?: RegistryCache | null;
    http?: RegistryHttp;
    fetch?: RegistryHttpOptions['fetch'];
  } = {},
): Record<Ecosystem, RegistryClient> {
  const http =
    options.http ??
    createRegistryHttp({
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
      cache: options.cache === undefined ? createMemoryCache(settings.cacheEntries) : options.cache,
      fetch: options.fetch,
    });
  const clients = {} as Record<Ecosystem, RegistryClient>;
  for (const module of ecosystems) {
    clients[module.id] = module.registry({
      baseUrl: settings.baseUrls[module.id],
      http,
      maxVersionDetails: settings.maxVersionDetails,
      downloadsUrl: module.id === 'npm' ? (settings.npmDownloadsUrl ?? null) : null,
    });
  }
  return clients;
}

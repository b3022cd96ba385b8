import { RegistryError, RetryableRegistryError } from '../../ecosystems/registry-types';
import type { RegistryClients } from '../../intel/package-catalogue/enrichment';
import type { JobObserver } from '../job-deps';

/** The outcome word of one package fetch (docs/operations.md#metrics). */
function failureOutcome(error: unknown): string {
  if (error instanceof RetryableRegistryError) {
    if (error.status === 429) return 'rate_limited';
    return error.status === null ? 'unreachable' : 'server_error';
  }
  return error instanceof RegistryError ? 'unusable' : 'failed';
}

/**
 * The same clients, each fetch reported to `observe` with its ecosystem, outcome and time. The
 * ecosystems stay a pure library: the observation wraps them here, where the jobs use them.
 */
export function observeClients(
  clients: RegistryClients,
  observe: JobObserver | undefined,
): RegistryClients {
  if (!observe) return clients;
  const observed: RegistryClients = {};
  for (const client of Object.values(clients)) {
    if (!client) continue;
    observed[client.ecosystem] = {
      ecosystem: client.ecosystem,
      get status() {
        return client.status;
      },
      fetchPackage: async (name, options) => {
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        try {
          const metadata = await client.fetchPackage(name, options);
          const outcome =
            metadata === null ? 'not_found' : metadata.notModified ? 'not_modified' : 'fetched';
          observe.registryFetched(client.ecosystem, outcome, seconds());
          return metadata;
        } catch (error) {
          observe.registryFetched(client.ecosystem, failureOutcome(error), seconds());
          throw error;
        }
      },
    };
  }
  return observed;
}

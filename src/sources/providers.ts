import { PROVIDER_HTTP_LIMITS, type ProviderHttpOptions } from './http';
import type { ProviderClient } from './provider-client';
import { createScmA } from './scm-a';
import { createScmB } from './scm-b';
import { createScmC } from './scm-c';
import { createScmD } from './scm-d';
import type { ConnectionProvider } from './types';

export type ApiProvider = Exclude<ConnectionProvider, 'git'>;

export const API_PROVIDERS: readonly ApiProvider[] = ['scm-a', 'scm-b', 'scm-c', 'scm-d'];

export function isApiProvider(value: string): value is ApiProvider {
  return (API_PROVIDERS as readonly string[]).includes(value);
}

const FACTORIES: Record<ApiProvider, (http: ProviderHttpOptions) => ProviderClient> = {
  'scm-a': createScmA,
  'scm-b': createScmB,
  'scm-c': createScmC,
  'scm-d': createScmD,
};

/**
 * The client for a provider. `options.timeoutMs` comes from `config.sources.requestTimeoutMs`;
 * the other HTTP options have limits that fit every provider (PROVIDER_HTTP_LIMITS).
 */
export function providerFor(
  id: ApiProvider,
  options: Pick<ProviderHttpOptions, 'timeoutMs'> & Partial<ProviderHttpOptions>,
): ProviderClient {
  return FACTORIES[id]({ ...PROVIDER_HTTP_LIMITS, ...options });
}

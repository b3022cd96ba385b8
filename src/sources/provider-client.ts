import type { ProviderConnection, SourceProvider } from './types';

/** What checking a connection's credential found out. */
export interface ProviderVerification {
  /** The account, group, organisation or workspace the credential acts for, when known. */
  accountName: string | null;
  /** The provider reports the connection as suspended (scm-a installations). */
  suspended: boolean;
}

/** A SourceProvider that can also check a credential before a connection is stored. */
export interface ProviderClient extends SourceProvider {
  /** Resolves when the provider accepts the credential; throws ProviderError otherwise. */
  verify: (connection: ProviderConnection) => Promise<ProviderVerification>;
}

/** The kinds of source-control connection: four provider APIs and plain git. */
export type ConnectionProvider = 'scm-a' | 'scm-b' | 'scm-c' | 'scm-d' | 'git';

/**
 * The contract between source-control providers (scm-a..d, one file each under src/sources/)
 * and the rest of the service: connections list and describe repositories through it, imports
 * resolve provider ids through it, scans get clone credentials from it.
 */
export interface ProviderRepository {
  /** The provider's stable id for the repository (string even when numeric). */
  externalId: string;
  name: string;
  /** owner/name, group/subgroup/name, project/repo: however the provider spells it. */
  fullName: string;
  /** https clone URL. */
  cloneUrl: string;
  webUrl: string | null;
  defaultBranch: string;
  private: boolean;
}

/** A connection as a provider client sees it: decrypted credentials, resolved base URL. */
export interface ProviderConnection {
  provider: ConnectionProvider;
  baseUrl: string;
  externalId: string | null;
  credentials: Record<string, string>;
}

/** How a failed provider call maps onto the API: 401, 502, 503, 404. */
export type ProviderFailure = 'unauthorized' | 'upstream' | 'unreachable' | 'not_found';

export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    readonly upstreamStatus: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface SourceProvider {
  id: Exclude<ConnectionProvider, 'git'>;
  listRepositories: (connection: ProviderConnection) => Promise<ProviderRepository[]>;
  /** null when the provider does not know the id (or the credential cannot see it). */
  getRepository: (
    connection: ProviderConnection,
    externalId: string,
  ) => Promise<ProviderRepository | null>;
  /** HTTP basic credentials for cloning over https, null for public access. */
  cloneCredentials: (
    connection: ProviderConnection,
  ) => Promise<{ username: string; password: string } | null>;
}

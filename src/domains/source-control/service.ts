import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import {
  badGateway,
  badRequest,
  conflict,
  FieldErrorCollector,
  notFound,
  ProblemError,
  unavailable,
} from '../../core/problem';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { RequestScope } from '../../http/request-scope';
import { outboundPolicy } from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import type { ProviderClient } from '../../sources/provider-client';
import { type ApiProvider, providerFor } from '../../sources/providers';
import type { ConnectionProvider } from '../../sources/types';
import {
  type ProviderConnection,
  ProviderError,
  type ProviderRepository,
} from '../../sources/types';
import {
  type ConnectionRow,
  findByExternalId,
  findConnectionRow,
  importedByExternalId,
  insertConnection,
  type PublicConnection,
} from './store';
import type { ConnectionStatus } from './tables';

/** A connection as provider clients, imports and scans use it: credentials opened. */
export interface LoadedConnection extends ProviderConnection {
  id: string;
  tenantId: string;
  name: string;
  status: ConnectionStatus;
  /** The tenant named the API base (not the operator): calls to it go through the guard. */
  customBaseUrl: boolean;
}

/** The provider's API base for a connection: its own, or the configured one. */
export function baseUrlFor(
  config: Config,
  provider: ConnectionProvider,
  own: string | null,
  flavor: string | undefined,
): string | null {
  if (own) return own;
  const sources = config.sources;
  switch (provider) {
    case 'scm-a':
      return sources.scmAApiUrl;
    case 'scm-b':
      return sources.scmBApiUrl;
    case 'scm-c':
      return sources.scmCApiUrl;
    case 'scm-d':
      return flavor === 'datacenter' ? sources.scmDDataCenterUrl : sources.scmDApiUrl;
    default:
      return null;
  }
}

function openCredentials(secretBox: SecretBox, row: ConnectionRow): Record<string, string> {
  if (!row.credentials_sealed) return {};
  const parsed = JSON.parse(secretBox.open(row.credentials_sealed)) as Record<string, unknown>;
  const credentials: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') credentials[key] = value;
  }
  return credentials;
}

export function toProviderConnection(
  secretBox: SecretBox,
  config: Config,
  row: ConnectionRow,
): LoadedConnection {
  const credentials = openCredentials(secretBox, row);
  if (row.provider === 'scm-a') {
    // The app's identity is the deployment's, not the tenant's: it comes from configuration.
    if (config.sources.scmAAppId) credentials.appId = config.sources.scmAAppId;
    if (config.sources.scmAAppPrivateKey) credentials.privateKey = config.sources.scmAAppPrivateKey;
  }
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    status: row.status,
    customBaseUrl: row.base_url !== null,
    provider: row.provider,
    baseUrl: baseUrlFor(config, row.provider, row.base_url, credentials.flavor) ?? '',
    externalId: row.external_id,
    credentials,
  };
}

/**
 * Loads one of the tenant's connections with its credentials opened (for imports and scans).
 * `db` is tenant-scoped, so another tenant's id is simply not found: null.
 */
export async function loadProviderConnection(
  db: Kysely<DB>,
  secretBox: SecretBox,
  config: Config,
  connectionId: string,
): Promise<LoadedConnection | null> {
  const row = await findConnectionRow(db, connectionId);
  return row ? toProviderConnection(secretBox, config, row) : null;
}

/** Like loadProviderConnection, but 404 when unknown and 409 when not active. */
export async function loadUsableConnection(
  db: Kysely<DB>,
  secretBox: SecretBox,
  config: Config,
  connectionId: string,
): Promise<LoadedConnection> {
  const connection = await loadProviderConnection(db, secretBox, config, connectionId);
  if (!connection) throw notFound('The source-control connection');
  if (connection.status !== 'active') {
    throw conflict(
      `The connection is ${connection.status}; only active connections can be used. Reconnect it.`,
    );
  }
  return connection;
}

/**
 * The provider client for a connection. A base URL the tenant named (`customBaseUrl`) is an
 * address the outside chose: every request to it goes through the outbound guard, pinned
 * (docs/outbound-guard.md). The operator's configured bases are trusted as configured.
 */
export function clientFor(
  config: Config,
  provider: ApiProvider,
  custom: { tenantId: string } | null = null,
): ProviderClient {
  return providerFor(provider, {
    timeoutMs: config.sources.requestTimeoutMs,
    guard: custom ? outboundPolicy(config, 'git', custom.tenantId) : null,
  });
}

/** clientFor with what the connection says about its base URL. */
export function clientForConnection(
  config: Config,
  connection: LoadedConnection & { provider: ApiProvider },
): ProviderClient {
  return clientFor(config, connection.provider, connection.customBaseUrl ? connection : null);
}

/**
 * HTTPS clone credentials for any connection: the provider's (installation token, access
 * token) for scm-a..d, the stored username and password for a generic git connection, or null.
 */
export async function cloneCredentialsFor(
  config: Config,
  connection: LoadedConnection,
): Promise<{ username: string; password: string } | null> {
  if (connection.provider === 'git') {
    const { username, password } = connection.credentials;
    return username && password ? { username, password } : null;
  }
  const provider = connection.provider;
  return clientForConnection(config, { ...connection, provider }).cloneCredentials(connection);
}

/**
 * Maps a provider failure onto the API: the provider refusing the credential is `refusal`
 * (401 when a caller just handed us the credential, 502 for a stored one that stopped working),
 * other provider errors 502, an unreachable provider 503.
 */
export function problemFor(error: unknown, refusal: 401 | 502): unknown {
  if (!(error instanceof ProviderError)) return error;
  switch (error.failure) {
    case 'unauthorized':
      return refusal === 401
        ? new ProblemError(401, `The provider refused the credential: ${error.message}.`)
        : badGateway(`The provider refused the connection's credential: ${error.message}.`);
    case 'unreachable':
      return unavailable(`The provider cannot be reached: ${error.message}.`);
    default:
      return badGateway(`The provider answered with an error: ${error.message}.`);
  }
}

export function hashWebhookToken(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

// --- scm-a installation -------------------------------------------------------------------

export interface InstallRequest {
  installationId: number | string;
  name?: string;
  webhookSecret?: string;
}

export interface InstallResult {
  connection: PublicConnection;
  created: boolean;
}

export function checkWebhookSecret(errors: FieldErrorCollector, secret: string | undefined): void {
  if (secret === undefined) return;
  if (secret.length < 16) errors.add('webhookSecret', 'must be at least 16 characters');
  if (secret.length > 256) errors.add('webhookSecret', 'must be at most 256 characters');
}

/**
 * Connects an scm-a app installation: checks with the provider that the configured app can act
 * for it (400 unknown installation, 401 refused, 503 unreachable), then stores it. Idempotent:
 * an installation the tenant already connected answers `created: false`.
 */
export async function installScmA(
  scope: RequestScope,
  secretBox: SecretBox,
  config: Config,
  request: InstallRequest,
): Promise<InstallResult> {
  const errors = new FieldErrorCollector();
  const installationId = String(request.installationId).trim();
  if (!/^[1-9]\d{0,18}$/.test(installationId)) {
    errors.add('installationId', 'must be a positive integer');
  }
  const name = request.name?.trim();
  if (name !== undefined && (name === '' || name.length > 200)) {
    errors.add('name', 'must be 1 to 200 characters');
  }
  checkWebhookSecret(errors, request.webhookSecret);
  errors.throwIfAny(400);

  const existing = await findByExternalId(scope.db(), 'scm-a', installationId);
  if (existing) return { connection: existing, created: false };
  if (!config.sources.scmAAppId || !config.sources.scmAAppPrivateKey) {
    throw unavailable(
      'The scm-a app is not configured on this server (SCM_A_APP_ID, SCM_A_APP_PRIVATE_KEY).',
    );
  }

  const connection: ProviderConnection = {
    provider: 'scm-a',
    baseUrl: config.sources.scmAApiUrl,
    externalId: installationId,
    credentials: { appId: config.sources.scmAAppId, privateKey: config.sources.scmAAppPrivateKey },
  };
  let verification: Awaited<ReturnType<ProviderClient['verify']>>;
  try {
    // No transaction is held while the provider answers (up to its timeout).
    verification = await scope.outside(() => clientFor(config, 'scm-a').verify(connection));
  } catch (error) {
    if (error instanceof ProviderError && error.failure === 'not_found') {
      throw badRequest('The installation is unknown to the configured scm-a app.', {
        installationId: ['is not an installation of the configured app'],
      });
    }
    throw problemFor(error, 401);
  }

  // An installation belongs to one account: the unique index refuses a second tenant (0004).
  const created = await insertConnection(scope.db(), {
    id: newId(),
    provider: 'scm-a',
    name: name ?? verification.accountName ?? `Installation ${installationId}`,
    base_url: null,
    external_id: installationId,
    account_name: verification.accountName,
    status: verification.suspended ? 'suspended' : 'active',
    status_reason: verification.suspended ? 'the installation is suspended on the provider' : null,
    credentials_sealed: null,
    webhook_secret_sealed: request.webhookSecret ? secretBox.seal(request.webhookSecret) : null,
    webhook_token_hash: null,
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) {
      throw conflict('This installation is already connected to another account.');
    }
    throw error;
  });
  return { connection: created, created: true };
}

// --- available repositories ---------------------------------------------------------------

export interface AvailableRepository extends ProviderRepository {
  repositoryId: string | null;
}

/** What the connection's credential can see, each marked with its imported repository (if any). */
export async function availableRepositories(
  scope: RequestScope,
  secretBox: SecretBox,
  config: Config,
  connectionId: string,
): Promise<AvailableRepository[]> {
  const connection = await loadUsableConnection(scope.db(), secretBox, config, connectionId);
  const provider = connection.provider;
  if (provider === 'git') {
    throw conflict(
      'A generic git connection cannot list repositories; import them by clone URL instead.',
    );
  }
  let listed: ProviderRepository[];
  try {
    listed = await scope.outside(() =>
      clientForConnection(config, { ...connection, provider }).listRepositories(connection),
    );
  } catch (error) {
    throw problemFor(error, 502);
  }
  const imported = await importedByExternalId(scope.db(), connection.id);
  return listed.map((repo) => ({ ...repo, repositoryId: imported.get(repo.externalId) ?? null }));
}

import type { Config } from '../../config';
import { conflict, FieldErrorCollector, unprocessable } from '../../core/problem';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import type { RequestScope } from '../../http/request-scope';
import {
  checkUrl,
  OutboundRefusedError,
  outboundPolicy,
  REFUSED_MESSAGE,
} from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import { type ProviderConnection, ProviderError } from '../../sources/types';
import {
  baseUrlFor,
  checkWebhookSecret,
  clientFor,
  generateWebhookSecret,
  hashWebhookToken,
  problemFor,
} from './service';
import { findByExternalId, insertConnection, type PublicConnection } from './store';

/**
 * Connections made with a credential instead of an app installation: scm-b, scm-c, scm-d (both
 * flavours) and generic git. The credential is checked with the provider before anything is
 * stored (401 refused, 502 provider error, 503 unreachable), then sealed.
 */
export interface CreateConnectionRequest {
  provider: string;
  name: string;
  baseUrl?: string;
  organization?: string;
  workspace?: string;
  flavor?: string;
  credentials?: {
    token?: string;
    username?: string;
    password?: string;
    appPassword?: string;
  };
  webhookSecret?: string;
}

export interface CreatedConnection {
  connection: PublicConnection;
  /** Generated here and shown once; null when the caller chose it or the provider has none. */
  webhookSecret: string | null;
}

const ORGANIZATION = /^[A-Za-z0-9][A-Za-z0-9-]{0,49}$/;
const WORKSPACE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const CREATABLE = ['scm-b', 'scm-c', 'scm-d', 'git'] as const;
type Creatable = (typeof CREATABLE)[number];

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
    );
  } catch {
    return false;
  }
}

function secretField(
  errors: FieldErrorCollector,
  field: string,
  value: string | undefined,
  required: boolean,
): string | undefined {
  if (value === undefined || value === '') {
    if (required) errors.add(field, 'is required');
    return undefined;
  }
  if (value.length > 4096) errors.add(field, 'must be at most 4096 characters');
  if (/[\r\n]/.test(value)) errors.add(field, 'must be a single line');
  return value;
}

interface Validated {
  provider: Creatable;
  name: string;
  baseUrl: string | null;
  externalId: string | null;
  credentials: Record<string, string>;
}

type GivenCredentials = NonNullable<CreateConnectionRequest['credentials']>;

function readProvider(errors: FieldErrorCollector, request: CreateConnectionRequest): Creatable {
  if (request.provider === 'scm-a') {
    errors.add(
      'provider',
      'scm-a connections are app installations: POST /api/v1/source-control/connections/github/install',
    );
  } else if (!(CREATABLE as readonly string[]).includes(request.provider)) {
    errors.add('provider', `must be one of ${CREATABLE.join(', ')}`);
  }
  return request.provider as Creatable;
}

function readFlavor(
  errors: FieldErrorCollector,
  request: CreateConnectionRequest,
  provider: Creatable,
): string {
  const flavor = request.flavor ?? 'cloud';
  if (request.flavor !== undefined && provider !== 'scm-d') {
    errors.add('flavor', 'is only used by scm-d connections');
  } else if (flavor !== 'cloud' && flavor !== 'datacenter') {
    errors.add('flavor', 'must be cloud or datacenter');
  }
  return flavor;
}

/** The caller's API base, without trailing slashes; null when not given or refused. */
function readBaseUrl(
  errors: FieldErrorCollector,
  config: Config,
  request: CreateConnectionRequest,
  provider: Creatable,
): string | null {
  if (request.baseUrl === undefined) return null;
  if (provider === 'git') {
    errors.add('baseUrl', 'is not used by generic git connections');
  } else if (!httpUrl(request.baseUrl)) {
    errors.add('baseUrl', 'must be an http(s) URL without credentials');
  } else if (!config.sources.allowCustomBaseUrls) {
    errors.add(
      'baseUrl',
      'custom provider API bases are disabled on this server (SCM_ALLOW_CUSTOM_BASE_URLS)',
    );
  } else {
    return request.baseUrl.replace(/\/+$/, '');
  }
  return null;
}

/**
 * The credential fields each provider (and scm-d flavour) uses, and the external id (scm-c's
 * organisation, scm-d cloud's workspace); a field given but not used is an error.
 */
function readCredentials(
  errors: FieldErrorCollector,
  config: Config,
  request: CreateConnectionRequest,
  chosen: { provider: Creatable; flavor: string; baseUrl: string | null },
): { credentials: Record<string, string>; externalId: string | null } {
  const { provider, flavor, baseUrl } = chosen;
  const given = request.credentials ?? {};
  const credentials: Record<string, string> = {};
  let externalId: string | null = null;
  const put = (key: keyof typeof given, required: boolean) => {
    const value = secretField(errors, `credentials.${key}`, given[key], required);
    if (value !== undefined) credentials[key] = value;
  };

  if (provider === 'scm-b') {
    put('token', true);
  } else if (provider === 'scm-c') {
    put('token', true);
    const organization = request.organization?.trim() ?? '';
    if (!ORGANIZATION.test(organization)) {
      errors.add('organization', 'is required: the organisation name (letters, digits, -)');
    }
    externalId = organization;
  } else if (provider === 'scm-d' && flavor === 'datacenter') {
    credentials.flavor = 'datacenter';
    put('token', true);
    put('username', false);
    if (!baseUrl && !config.sources.scmDDataCenterUrl) {
      errors.add(
        'baseUrl',
        'is required: no data-center server is configured (SCM_D_DATACENTER_URL)',
      );
    }
  } else if (provider === 'scm-d') {
    credentials.flavor = 'cloud';
    const workspace = request.workspace?.trim() ?? '';
    if (!WORKSPACE.test(workspace)) errors.add('workspace', 'is required: the workspace slug');
    externalId = workspace;
    if (given.token) {
      put('token', true);
    } else {
      put('username', true);
      put('appPassword', true);
    }
  } else if (provider === 'git') {
    put('username', Boolean(given.password));
    put('password', Boolean(given.username));
  }
  rejectUnusedCredentials(errors, given, credentials);
  return { credentials, externalId };
}

function rejectUnusedCredentials(
  errors: FieldErrorCollector,
  given: GivenCredentials,
  credentials: Record<string, string>,
): void {
  for (const key of Object.keys(given)) {
    if (!(key in credentials) && given[key as keyof typeof given] !== undefined) {
      const used = Object.keys(credentials).filter((k) => k !== 'flavor');
      errors.add(`credentials.${key}`, `is not used here (expected: ${used.join(', ') || 'none'})`);
    }
  }
}

/** organization belongs to scm-c, workspace to scm-d cloud only. */
function rejectMisplacedScopes(
  errors: FieldErrorCollector,
  request: CreateConnectionRequest,
  provider: Creatable,
  flavor: string,
): void {
  if (request.organization !== undefined && provider !== 'scm-c') {
    errors.add('organization', 'is only used by scm-c connections');
  }
  if (request.workspace !== undefined && !(provider === 'scm-d' && flavor === 'cloud')) {
    errors.add('workspace', 'is only used by scm-d cloud connections');
  }
}

function validate(config: Config, request: CreateConnectionRequest): Validated {
  const errors = new FieldErrorCollector();
  const provider = readProvider(errors, request);
  const name = request.name.trim();
  if (name === '' || name.length > 200) errors.add('name', 'must be 1 to 200 characters');
  checkWebhookSecret(errors, request.webhookSecret);
  const flavor = readFlavor(errors, request, provider);
  const baseUrl = readBaseUrl(errors, config, request, provider);
  const { credentials, externalId } = readCredentials(errors, config, request, {
    provider,
    flavor,
    baseUrl,
  });
  rejectMisplacedScopes(errors, request, provider, flavor);
  errors.throwIfAny(422);
  return { provider, name, baseUrl, externalId, credentials };
}

/** A base URL the tenant names must pass the outbound guard (422 on `baseUrl` otherwise). */
async function checkBaseUrl(config: Config, tenantId: string, baseUrl: string): Promise<void> {
  try {
    await checkUrl(baseUrl, outboundPolicy(config, 'git', tenantId), ['https:', 'http:']);
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    throw unprocessable('The connection has invalid fields.', { baseUrl: [REFUSED_MESSAGE] });
  }
}

export async function createConnection(
  scope: RequestScope,
  secretBox: SecretBox,
  config: Config,
  tenantId: string,
  request: CreateConnectionRequest,
): Promise<CreatedConnection> {
  const valid = validate(config, request);
  if (valid.externalId) {
    const existing = await findByExternalId(scope.db(), valid.provider, valid.externalId);
    if (existing) {
      throw conflict(
        `This ${valid.provider} account is already connected (connection ${existing.id}).`,
      );
    }
  }

  let accountName: string | null = null;
  if (valid.provider !== 'git') {
    const connection: ProviderConnection = {
      provider: valid.provider,
      baseUrl: baseUrlFor(config, valid.provider, valid.baseUrl, valid.credentials.flavor) ?? '',
      externalId: valid.externalId,
      credentials: valid.credentials,
    };
    const provider = valid.provider;
    const custom = valid.baseUrl ? { tenantId } : null;
    try {
      // Nothing is held while the provider answers; the guard runs before any connection.
      const verified = await scope.outside(async () => {
        if (valid.baseUrl) await checkBaseUrl(config, tenantId, valid.baseUrl);
        return clientFor(config, provider, custom).verify(connection);
      });
      accountName = verified.accountName;
    } catch (error) {
      if (error instanceof ProviderError && error.failure === 'not_found') {
        // The credential is fine but what it should act for does not exist there.
        const field =
          valid.provider === 'scm-c' ? 'organization' : valid.externalId ? 'workspace' : 'baseUrl';
        throw unprocessable('The provider does not know what this connection names.', {
          [field]: ['was not found on the provider'],
        });
      }
      throw problemFor(error, 401);
    }
  }

  // Generic git connections receive no deliveries; the others get a secret for their webhooks.
  const generated =
    valid.provider === 'git' || request.webhookSecret ? null : generateWebhookSecret();
  const webhookSecret = request.webhookSecret ?? generated;
  const connection = await insertConnection(scope.db(), {
    id: newId(),
    provider: valid.provider,
    name: valid.name,
    base_url: valid.baseUrl,
    external_id: valid.externalId,
    account_name: accountName,
    credentials_sealed:
      Object.keys(valid.credentials).length > 0
        ? secretBox.seal(JSON.stringify(valid.credentials))
        : null,
    webhook_secret_sealed: webhookSecret ? secretBox.seal(webhookSecret) : null,
    webhook_token_hash: webhookSecret ? hashWebhookToken(webhookSecret) : null,
  }).catch((error: unknown) => {
    // Two identical requests racing: the unique index keeps one.
    if (isUniqueViolation(error)) {
      throw conflict(`This ${valid.provider} account is already connected.`);
    }
    throw error;
  });
  return { connection, webhookSecret: generated };
}

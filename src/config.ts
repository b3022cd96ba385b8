import { createPrivateKey } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Ecosystem } from './ecosystems/names';
import type { RegistriesSettings } from './ecosystems/registry-types';
import {
  type DefaultsOrigins,
  type MachineDefaults,
  NO_MACHINE_DEFAULTS,
  REGISTRY_SETTINGS,
  type SettingOrigin,
} from './registry-defaults/index';
import { parseCidr } from './security/outbound-guard-ranges';

/**
 * Every setting of the service, parsed and validated once from the environment and injected into
 * the app (never read at import time). `loadConfig` throws a `ConfigError` naming each bad setting.
 */
export type ServiceRole = 'api' | 'worker' | 'all';

export interface Config {
  port: number;
  host: string;
  /** `postgres://...` switches to PostgreSQL; null means the embedded database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  /** 32-byte key (base64) for AES-256-GCM of provider secrets; the embedded mode creates one. */
  masterKey: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `auto`: readable lines in a terminal, JSON otherwise. */
  logFormat: 'auto' | 'pretty' | 'json';
  environment: string;
  role: ServiceRole;
  bodyLimitBytes: number;
  trustProxy: boolean;
  rateLimits: { tenantPerMinute: number; tokenPerMinute: number; ipPerMinute: number };
  demoTenantTtlHours: number;
  /** How long a tenant data export stays downloadable before the expiry job deletes it. */
  dataExportTtlHours: number;
  /** How often `lastUsedAtUtc` updates are flushed to the database (one write per token per flush). */
  tokenUsageFlushSeconds: number;
  /** Database pool size per process. */
  databasePoolSize: number;
  /** PostgreSQL: connections of the job workers' own pool per process (docs/operations.md). */
  databaseJobPoolSize: number;
  /** How long a request waits for a free connection before it gets 503 with Retry-After. */
  databaseAcquireTimeoutMs: number;
  /** Bound of an orderly stop: draining requests, then jobs (docs/operations.md). */
  shutdownTimeoutSeconds: number;
  /** Prometheus metrics (docs/operations.md#metrics): the own port (null: none) and its host. */
  metrics: { port: number | null; host: string };
  /** The operator token (docs/operations.md#operator-token); null: no operator endpoints. */
  operatorToken: string | null;
  /** Package intelligence (docs/package-intelligence.md). */
  packageIntel: {
    /** Registry metadata older than this is re-fetched. */
    staleAfterHours: number;
    /** Packages per enrichment job (a scan's packages are split into jobs of this size). */
    enrichChunkSize: number;
    /** Packages the scheduled refresh fetches per run. */
    refreshBatchSize: number;
    /** Registry requests in flight per job. */
    fetchConcurrency: number;
    /** No release for this many days: the `unmaintained` risk indicator. */
    unmaintainedAfterDays: number;
    /** A release younger than this: the `recently-published` risk indicator. */
    recentlyPublishedHours: number;
    /** A superseded major line without a release for this long is end-of-life. */
    endOfLifeAfterDays: number;
    /** Peer benchmarks are shown only when at least this many other tenants take part. */
    benchmarkMinimumTenants: number;
  };
  /** OSV advisory feed: per-ecosystem zip exports and the scheduled sync (docs/vulnerabilities.md). */
  osv: {
    /** Base URL of the exports (`{base}/{ecosystem}/all.zip`, or a URL containing `{ecosystem}`); null disables the sync. */
    feedUrl: string | null;
    /** OSV ecosystem names to sync. */
    syncEcosystems: string[];
    /** Cron expression (UTC) of the sync job. */
    syncSchedule: string;
  };
  /** Source-control providers and push ingest (docs/source-control.md). */
  sources: SourcesConfig;
  /** Package registries (docs/registries.md): base URL per ecosystem, null disables that client. */
  registries: RegistriesSettings;
  /** Where each registry and the advisory feed came from (the start banner shows it). */
  origins: DefaultsOrigins;
  /** Repository checkouts and the scan worker (docs/repositories-and-scans.md). */
  scans: ScansConfig;
  /** Connections to user-given addresses (docs/outbound-guard.md). */
  outbound: OutboundConfig;
  /** Outbound webhook deliveries (docs/integrations.md). */
  webhooks: WebhookDeliveryConfig;
  /** E-mail to status subscribers (docs/status.md#subscriptions). */
  statusMail: StatusMailConfig;
  /** SBOM import and export (docs/sbom.md). */
  sbom: {
    /** Largest accepted SBOM import body (413 above); larger than the general body limit. */
    importMaxBytes: number;
    /** Components (packages) one import may carry (422 above). */
    maxComponents: number;
  };
  /** Policies (docs/policies.md). */
  policies: {
    /** Furthest ahead an exception may expire (422 beyond). */
    exceptionMaxDays: number;
    /** Packages one IDE verdict batch may ask about (413 above). */
    verdictMaxPackages: number;
    /** Largest accepted IDE verdict batch body (413 above). */
    verdictBodyLimitBytes: number;
  };
}

/** E-mail to status subscribers: SMTP, the sender, the links' base and the sending retries. */
export interface StatusMailConfig {
  /** `smtp://` or `smtps://` (credentials in the URL); null: messages stay in the outbox table. */
  smtpUrl: string | null;
  /** The From address. */
  from: string;
  /** Where people reach this service: confirm and unsubscribe links start with it. */
  publicBaseUrl: string;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** How often a worker looks for mail due to be sent. */
  pollMs: number;
  /** A pending address gets another confirmation mail only after this long. */
  confirmResendMinutes: number;
}

/** API bases of the four providers (self-hosted instances set their own) and the scm-a app. */
export interface SourcesConfig {
  scmAApiUrl: string;
  scmAAppId: string | null;
  /** PEM private key of the scm-a app (signs the RS256 app JWT). */
  scmAAppPrivateKey: string | null;
  /** The scm-a app's webhook secret (one per app); a connection may carry its own instead. */
  scmAWebhookSecret: string | null;
  scmBApiUrl: string;
  scmCApiUrl: string;
  /** scm-d cloud flavour API base (…/2.0). */
  scmDApiUrl: string;
  /** scm-d data-center flavour server root (…/rest/api/1.0 is appended); unset: per connection. */
  scmDDataCenterUrl: string | null;
  /** Whether a connection may name its own API base (off: tenants could aim requests anywhere). */
  allowCustomBaseUrls: boolean;
  requestTimeoutMs: number;
  webhookBodyLimitBytes: number;
}

/**
 * Networks (CIDR) that outbound connections to user-given addresses may reach although the
 * guard refuses them by default (private, loopback...): per kind of connection, service-wide
 * and per tenant. Empty by default: everything internal is refused.
 */
export interface OutboundConfig {
  allow: { git: string[]; webhooks: string[] };
  /** Tenant id → its own additions. */
  tenantAllow: Record<string, { git?: string[]; webhooks?: string[] }>;
}

/**
 * Outbound deliveries (docs/integrations.md#retries): the retry schedule is exponential from
 * `retryBaseMs`, capped at `retryMaxDelayMs`, plus up to a quarter of jitter, for `maxAttempts`
 * attempts; the defaults span about 31 hours. Tests shorten it.
 */
export interface WebhookDeliveryConfig {
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** How often a worker looks for deliveries whose retry is due. */
  pollMs: number;
  /** Extra certificate authorities (PEM file) receivers may be signed by (tests: self-signed). */
  caFile: string | null;
}

/** Clone-URL imports and the scan worker's checkouts. */
export interface ScansConfig {
  /** Accept `file://` clone URLs (local repositories): the embedded demo and tests. */
  allowFileUrls: boolean;
  /**
   * The directories `file://` repositories must lie in (after following links); `{tenantId}`
   * in a root stands for the importing tenant's id.
   */
  fileUrlRoots: string[];
  /** A checkout larger than this (working tree + .git) fails the scan. */
  maxCheckoutBytes: number;
  /** A checkout slower than this fails the scan. */
  checkoutTimeoutSeconds: number;
  /** How often a running scan proves it is alive. */
  heartbeatSeconds: number;
  /** A running scan whose heartbeat is older than this is re-queued (or failed) by the sweep. */
  staleAfterSeconds: number;
  /** Runs per scan before a stale scan is failed instead of re-queued. */
  maxAttempts: number;
  /** Extra certificate authorities (PEM file) for https clones of self-hosted servers. */
  gitCaFile: string | null;
  /** The extraction worker thread's V8 heap in MiB: the scan's memory bound (a file above it is given up). */
  extractionHeapMb: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Long enough not to be guessed by the per-IP rate limit's allowance of tries. */
function operatorToken(raw: string | undefined, problems: string[]): string | null {
  const token = raw?.trim();
  if (!token) return null;
  if (token.length < 16 || /\s/.test(token)) {
    problems.push('DRIFTWATCH_OPERATOR_TOKEN must be at least 16 characters without spaces');
    return null;
  }
  return token;
}

/** Settings, their defaults and documentation — the README table is written from this list. */
export const SETTINGS = [
  ['PORT', '8080', 'HTTP port'],
  ['HOST', '0.0.0.0', 'interface to listen on'],
  [
    'DATABASE_URL',
    '(unset: embedded)',
    'PostgreSQL connection string; unset runs the embedded database',
  ],
  [
    'DATA_DIR',
    '$XDG_DATA_HOME/driftwatch or ~/.local/share/driftwatch',
    'embedded database files, lock file, operator socket record and generated master key',
  ],
  ['REDIS_URL', '(unset)', 'Redis for rate-limit counters shared by several processes'],
  [
    'DRIFTWATCH_MASTER_KEY',
    '(embedded: generated)',
    'base64 32-byte key encrypting provider secrets',
  ],
  ['LOG_LEVEL', 'info', 'fatal, error, warn, info, debug, trace or silent'],
  ['LOG_FORMAT', 'auto', 'auto (readable lines in a terminal, JSON otherwise), pretty or json'],
  ['DRIFTWATCH_ENV', 'development', 'environment name reported by /api/v1/version'],
  ['DRIFTWATCH_ROLE', 'all', 'api, worker or all (also `driftwatch serve --role`)'],
  ['BODY_LIMIT_BYTES', '1048576', 'largest accepted request body (413 above)'],
  ['TRUST_PROXY', 'false', 'take the client IP from X-Forwarded-For'],
  ['RATE_LIMIT_TENANT_PER_MINUTE', '2000', 'per-tenant bucket (plans may lower it)'],
  ['RATE_LIMIT_TOKEN_PER_MINUTE', '600', 'per-token bucket (plans may lower it)'],
  ['RATE_LIMIT_IP_PER_MINUTE', '60', 'per-IP bucket for unauthenticated requests'],
  ['DEMO_TENANT_TTL_HOURS', '24', 'lifetime of demo tenants from POST /api/v1/auth/demo'],
  ['DATA_EXPORT_TTL_HOURS', '24', 'how long a tenant data export stays downloadable'],
  ['TOKEN_USAGE_FLUSH_SECONDS', '30', 'how often lastUsedAtUtc is written'],
  [
    'DATABASE_POOL_SIZE',
    '10',
    'connections per pool per process (PostgreSQL adds a read pool of the same size)',
  ],
  ['DATABASE_JOB_POOL_SIZE', '4', 'PostgreSQL: connections of the job workers and outbox relay'],
  ['DATABASE_ACQUIRE_TIMEOUT_MS', '2000', 'a request waits this long for a connection, then 503'],
  ['SHUTDOWN_TIMEOUT_SECONDS', '25', 'bound of an orderly stop (requests, then running jobs)'],
  ['METRICS_PORT', '(unset: off)', 'serve Prometheus metrics at /metrics on this port'],
  ['METRICS_HOST', '127.0.0.1', 'interface of the metrics port'],
  [
    'DRIFTWATCH_OPERATOR_TOKEN',
    '(unset)',
    'operator secret (16+ characters) for GET /metrics on the API port',
  ],
  ['PACKAGE_METADATA_STALE_HOURS', '24', 'registry metadata older than this is re-fetched'],
  ['PACKAGE_ENRICH_CHUNK_SIZE', '50', 'packages per enrichment job'],
  ['PACKAGE_REFRESH_BATCH_SIZE', '200', 'packages the scheduled refresh fetches per run'],
  ['PACKAGE_FETCH_CONCURRENCY', '4', 'registry requests in flight per enrichment job'],
  ['PACKAGE_UNMAINTAINED_DAYS', '730', 'days without a release that make a package unmaintained'],
  ['PACKAGE_RECENTLY_PUBLISHED_HOURS', '72', 'a release younger than this is flagged as recent'],
  [
    'PACKAGE_END_OF_LIFE_DAYS',
    '540',
    'idle days after which a superseded major line is end-of-life',
  ],
  ['BENCHMARK_MINIMUM_TENANTS', '5', 'peer benchmarks need at least this many other tenants'],
  [
    'OSV_FEED_URL',
    '(the public OSV export; off: no sync)',
    'base URL of OSV per-ecosystem zip exports ({base}/{ecosystem}/all.zip, or a URL with {ecosystem})',
  ],
  [
    'OSV_SYNC_ECOSYSTEMS',
    'npm,PyPI,Maven,Go,crates.io,RubyGems,Packagist,NuGet',
    'OSV ecosystems the sync job fetches (spec spellings such as Cargo and Composer accepted)',
  ],
  ['OSV_SYNC_SCHEDULE', '23 * * * *', 'cron (UTC) of the OSV sync job'],
  ['SCM_A_API_URL', 'https://api.github.com', 'scm-a API base (self-hosted: https://host/api/v3)'],
  ['SCM_A_APP_ID', '(unset)', 'scm-a app id; unset disables the scm-a install flow'],
  ['SCM_A_APP_PRIVATE_KEY', '(unset)', 'scm-a app private key, PEM (\\n escapes accepted)'],
  ['SCM_A_WEBHOOK_SECRET', '(unset)', 'scm-a app webhook secret (X-Hub-Signature-256 key)'],
  [
    'SCM_B_API_URL',
    'https://gitlab.com/api/v4',
    'scm-b API base (self-hosted: https://host/api/v4)',
  ],
  ['SCM_C_API_URL', 'https://dev.azure.com', 'scm-c API base (organisation is appended)'],
  ['SCM_D_API_URL', 'https://api.bitbucket.org/2.0', 'scm-d cloud flavour API base'],
  ['SCM_D_DATACENTER_URL', '(unset)', 'scm-d data-center server root (or per connection)'],
  ['SCM_ALLOW_CUSTOM_BASE_URLS', 'false', 'let a connection name its own provider API base'],
  ['SCM_REQUEST_TIMEOUT_MS', '15000', 'timeout of one provider API request'],
  ['WEBHOOK_BODY_LIMIT_BYTES', '5242880', 'largest accepted push delivery (413 above)'],
  ['NPM_REGISTRY_URL', '(npm configuration)', 'npm registry; defaults to the one npm itself uses'],
  ['PYPI_URL', '(client configuration)', 'PyPI JSON API base (serves /pypi/<name>/json)'],
  ['MAVEN_REPOSITORY_URL', '(client configuration)', 'Maven 2 layout repository root'],
  ['GOPROXY_URL', '(client configuration)', 'Go module proxy base (one URL, not a GOPROXY list)'],
  ['CRATES_API_URL', '(client configuration)', 'Cargo crates web API base (serves /api/v1/crates)'],
  ['RUBYGEMS_URL', '(client configuration)', 'RubyGems API base (serves /api/v1)'],
  ['PACKAGIST_URL', '(client configuration)', 'Composer v2 repository base (serves /p2)'],
  ['NUGET_SERVICE_INDEX_URL', '(client configuration)', 'NuGet v3 service index (…/v3/index.json)'],
  ['OCI_REGISTRY_URL', '(client configuration)', 'OCI/Docker registry base (serves /v2/)'],
  [
    'REGISTRY_CLIENT_DEFAULTS',
    'true',
    "take each registry from its ecosystem client's configuration when its setting is unset",
  ],
  ['REGISTRY_TIMEOUT_MS', '15000', 'timeout of one registry request'],
  ['REGISTRY_MAX_RESPONSE_BYTES', '67108864', 'largest registry response read'],
  ['REGISTRY_CACHE_ENTRIES', '2000', 'in-memory registry response cache size (0: off)'],
  ['REGISTRY_MAX_VERSION_DETAILS', '40', 'per-version requests per package (Go, Maven, OCI)'],
  ['NPM_DOWNLOADS_URL', '(unset: no npm counts)', 'npm download-counts API base (weekly counts)'],
  [
    'SCAN_ALLOW_FILE_URLS',
    '(embedded: true, DATABASE_URL set: false)',
    'accept file:// clone URLs (local repositories on the server)',
  ],
  ['SCAN_MAX_CHECKOUT_BYTES', '536870912', 'largest checkout a scan may make (fails above)'],
  ['SCAN_CHECKOUT_TIMEOUT_SECONDS', '300', 'longest a scan checkout may take (fails above)'],
  ['SCAN_HEARTBEAT_SECONDS', '10', 'how often a running scan refreshes its heartbeat'],
  ['SCAN_STALE_AFTER_SECONDS', '120', 'heartbeat age after which a running scan is recovered'],
  ['SCAN_MAX_ATTEMPTS', '3', 'runs per scan before a stale scan is failed, not re-queued'],
  ['SCAN_GIT_CA_FILE', '(unset)', 'PEM bundle of extra CAs for https clones'],
  [
    'SCAN_EXTRACTION_HEAP_MB',
    '512',
    'heap of the extraction worker thread (a file above: given up)',
  ],
  [
    'SCAN_FILE_URL_ROOTS',
    '(DATA_DIR/repositories)',
    'comma-separated directories file:// repositories must lie in ({tenantId} allowed)',
  ],
  [
    'OUTBOUND_ALLOW_GIT_CIDRS',
    '(none)',
    'networks clones and user-given source-control APIs may reach despite the guard',
  ],
  [
    'OUTBOUND_ALLOW_WEBHOOK_CIDRS',
    '(none)',
    'networks webhook deliveries may reach despite the guard',
  ],
  [
    'OUTBOUND_TENANT_ALLOW_CIDRS',
    '(none)',
    'per-tenant additions: <tenant-id>:<git|webhooks>=<cidr>,<cidr>;...',
  ],
  ['WEBHOOK_TIMEOUT_MS', '10000', 'longest a webhook delivery attempt may take'],
  [
    'WEBHOOK_MAX_ATTEMPTS',
    '18',
    'attempts per delivery before it fails and disables the integration',
  ],
  [
    'WEBHOOK_RETRY_BASE_MS',
    '60000',
    'first retry delay (doubles each attempt, plus up to 25% jitter)',
  ],
  ['WEBHOOK_RETRY_MAX_DELAY_MS', '10800000', 'longest delay between two attempts'],
  ['WEBHOOK_POLL_MS', '250', 'how often a worker looks for due webhook deliveries'],
  ['WEBHOOK_CA_FILE', '(unset)', 'PEM bundle of extra CAs webhook receivers may use'],
  ['SMTP_URL', '(unset: outbox only)', 'smtp:// or smtps:// server for status subscriber mail'],
  ['MAIL_FROM', 'Driftwatch status <status@localhost>', 'sender of status subscriber mail'],
  [
    'PUBLIC_BASE_URL',
    'http://localhost:8080',
    'where people reach the service (links in status mail)',
  ],
  ['MAIL_MAX_ATTEMPTS', '8', 'attempts per status mail before it is given up'],
  ['MAIL_RETRY_BASE_MS', '60000', 'first retry delay of a status mail (doubles, plus jitter)'],
  ['MAIL_RETRY_MAX_DELAY_MS', '3600000', 'longest delay between two attempts of a status mail'],
  ['MAIL_POLL_MS', '1000', 'how often a worker looks for status mail due to be sent'],
  ['SBOM_IMPORT_MAX_BYTES', '20971520', 'largest accepted SBOM import body (413 above)'],
  ['SBOM_MAX_COMPONENTS', '50000', 'components one SBOM import may carry (422 above)'],
  ['POLICY_EXCEPTION_MAX_DAYS', '365', 'furthest ahead a policy exception may expire (422 beyond)'],
  ['IDE_VERDICTS_MAX_PACKAGES', '500', 'packages one IDE verdict batch may ask about (413 above)'],
  [
    'IDE_VERDICTS_BODY_LIMIT_BYTES',
    '262144',
    'largest accepted IDE verdict batch body (413 above)',
  ],
] as const;

const OSV_ECOSYSTEM_NAMES: Record<string, string> = {
  npm: 'npm',
  pypi: 'PyPI',
  maven: 'Maven',
  go: 'Go',
  'crates.io': 'crates.io',
  cargo: 'crates.io',
  rubygems: 'RubyGems',
  packagist: 'Packagist',
  composer: 'Packagist',
  nuget: 'NuGet',
};

function osvEcosystems(raw: string | undefined, problems: string[]): string[] {
  const list = (raw ?? 'npm,PyPI,Maven,Go,crates.io,RubyGems,Packagist,NuGet')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const name of list) {
    const known = OSV_ECOSYSTEM_NAMES[name.toLowerCase()];
    if (!known) problems.push(`OSV_SYNC_ECOSYSTEMS: unknown ecosystem "${name}"`);
    else if (!out.includes(known)) out.push(known);
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function cidrList(name: string, raw: string | undefined, problems: string[]): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const item of list) {
    if (!parseCidr(item)) {
      problems.push(`${name}: "${item}" is not a CIDR network (10.0.0.0/8, fd00::/8)`);
    }
  }
  return list;
}

function tenantCidrs(raw: string | undefined, problems: string[]): OutboundConfig['tenantAllow'] {
  const name = 'OUTBOUND_TENANT_ALLOW_CIDRS';
  const out: OutboundConfig['tenantAllow'] = {};
  for (const entry of (raw ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([^:=\s]+):(git|webhooks)=(.+)$/.exec(entry);
    if (!match || !UUID.test(match[1] as string)) {
      problems.push(`${name}: "${entry}" is not <tenant-id>:<git|webhooks>=<cidr>,<cidr>`);
      continue;
    }
    const tenant = (match[1] as string).toLowerCase();
    const kind = match[2] as 'git' | 'webhooks';
    const own = out[tenant] ?? {};
    own[kind] = [...(own[kind] ?? []), ...cidrList(name, match[3], problems)];
    out[tenant] = own;
  }
  return out;
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * file:// roots: absolute, and never a directory holding the service's own files (its working
 * directory, the data directory) — the default lives inside the data directory, not above it.
 */
function fileRoots(raw: string | undefined, dataDir: string, problems: string[]): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (list.length === 0) return [resolve(dataDir, 'repositories')];
  const roots: string[] = [];
  for (const item of list) {
    const root = resolve(item);
    const bare = root.replaceAll('{tenantId}', '');
    if (!isAbsolute(item)) problems.push(`SCAN_FILE_URL_ROOTS: "${item}" must be absolute`);
    else if (inside(bare, process.cwd()) || inside(bare, dataDir)) {
      problems.push(
        `SCAN_FILE_URL_ROOTS: "${item}" contains the service's own files (working or data directory)`,
      );
    } else if (inside(resolve(dataDir, 'pgdata'), root)) {
      problems.push(`SCAN_FILE_URL_ROOTS: "${item}" is inside the database directory`);
    } else roots.push(root);
  }
  return roots;
}

/** The typed readers of the environment; each pushes what is wrong with its setting to `problems`. */
function settingReaders(env: Env, problems: string[]) {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
        return null;
      }
      return raw;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };

  const privateKey = (name: string): string | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    const pem = raw.includes('\\n') ? raw.replaceAll('\\n', '\n') : raw;
    try {
      createPrivateKey(pem);
      return pem;
    } catch {
      problems.push(`${name} is not a PEM private key`);
      return null;
    }
  };

  const cron = (name: string, fallback: string): string => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^(\S+\s+){4}\S+$/.test(raw) || !/^[\d*/,\-\s]+$/.test(raw)) {
      problems.push(`${name} must be a five-field cron expression (got "${raw}")`);
      return fallback;
    }
    return raw;
  };
  return { int, bool, oneOf, url, privateKey, cron };
}

type SettingReaders = ReturnType<typeof settingReaders>;

/**
 * The base URL of each ecosystem's registry: Driftwatch's own setting, else the ecosystem
 * client's configuration, else off. Records where each came from in `origins`.
 */
function registryReader(
  env: Env,
  read: SettingReaders,
  machine: MachineDefaults,
  registryOrigins: Record<Ecosystem, SettingOrigin>,
) {
  const { bool, url } = read;
  const useClients = bool('REGISTRY_CLIENT_DEFAULTS', true);
  return (id: Ecosystem): string | null => {
    const setting = REGISTRY_SETTINGS[id];
    if (env[setting]?.trim().toLowerCase() === 'off') {
      registryOrigins[id] = { kind: 'off', setting, note: `${setting}=off` };
      return null;
    }
    const own = url(setting, ['https:', 'http:']);
    const client = useClients ? machine.registries[id] : undefined;
    const note = useClients ? (machine.notes[id] ?? null) : 'REGISTRY_CLIENT_DEFAULTS=false';
    registryOrigins[id] = own
      ? { kind: 'setting', setting }
      : client
        ? { kind: 'client', source: client.source }
        : { kind: 'off', setting, note };
    return own ?? client?.url ?? null;
  };
}

/** The OSV feed: OSV_FEED_URL, `off`, or the machine's default. */
function osvFeedSetting(env: Env, read: SettingReaders, machine: MachineDefaults) {
  const osvOff = env.OSV_FEED_URL?.trim().toLowerCase() === 'off';
  const osvFeedUrl = osvOff ? null : read.url('OSV_FEED_URL', ['http:', 'https:']);
  const origin: SettingOrigin = osvFeedUrl
    ? { kind: 'setting', setting: 'OSV_FEED_URL' }
    : !osvOff && machine.osvFeedUrl
      ? { kind: 'default', setting: 'OSV_FEED_URL' }
      : { kind: 'off', setting: 'OSV_FEED_URL', note: osvOff ? 'OSV_FEED_URL=off' : null };
  return { feedUrl: osvFeedUrl ?? (osvOff ? null : machine.osvFeedUrl), origin };
}

function packageIntelSettings({ int }: SettingReaders): Config['packageIntel'] {
  return {
    staleAfterHours: int('PACKAGE_METADATA_STALE_HOURS', 24, 1, 24 * 365),
    enrichChunkSize: int('PACKAGE_ENRICH_CHUNK_SIZE', 50, 1, 1000),
    refreshBatchSize: int('PACKAGE_REFRESH_BATCH_SIZE', 200, 1, 100_000),
    fetchConcurrency: int('PACKAGE_FETCH_CONCURRENCY', 4, 1, 64),
    unmaintainedAfterDays: int('PACKAGE_UNMAINTAINED_DAYS', 730, 1, 36_500),
    recentlyPublishedHours: int('PACKAGE_RECENTLY_PUBLISHED_HOURS', 72, 1, 24 * 365),
    endOfLifeAfterDays: int('PACKAGE_END_OF_LIFE_DAYS', 540, 1, 36_500),
    benchmarkMinimumTenants: int('BENCHMARK_MINIMUM_TENANTS', 5, 1, 1_000_000),
  };
}

function sourceSettings(env: Env, { int, bool, url, privateKey }: SettingReaders): SourcesConfig {
  return {
    scmAApiUrl: url('SCM_A_API_URL', ['https:', 'http:']) ?? 'https://api.github.com',
    scmAAppId: env.SCM_A_APP_ID || null,
    scmAAppPrivateKey: privateKey('SCM_A_APP_PRIVATE_KEY'),
    scmAWebhookSecret: env.SCM_A_WEBHOOK_SECRET || null,
    scmBApiUrl: url('SCM_B_API_URL', ['https:', 'http:']) ?? 'https://gitlab.com/api/v4',
    scmCApiUrl: url('SCM_C_API_URL', ['https:', 'http:']) ?? 'https://dev.azure.com',
    scmDApiUrl: url('SCM_D_API_URL', ['https:', 'http:']) ?? 'https://api.bitbucket.org/2.0',
    scmDDataCenterUrl: url('SCM_D_DATACENTER_URL', ['https:', 'http:']),
    allowCustomBaseUrls: bool('SCM_ALLOW_CUSTOM_BASE_URLS', false),
    requestTimeoutMs: int('SCM_REQUEST_TIMEOUT_MS', 15_000, 100, 600_000),
    webhookBodyLimitBytes: int('WEBHOOK_BODY_LIMIT_BYTES', 5 * 1024 * 1024, 1024, 1024 ** 3),
  };
}

function registrySettings(
  { int, url }: SettingReaders,
  registry: (id: Ecosystem) => string | null,
): Config['registries'] {
  return {
    baseUrls: {
      npm: registry('npm'),
      PyPI: registry('PyPI'),
      Maven: registry('Maven'),
      Go: registry('Go'),
      Cargo: registry('Cargo'),
      RubyGems: registry('RubyGems'),
      Composer: registry('Composer'),
      NuGet: registry('NuGet'),
      Docker: registry('Docker'),
    },
    timeoutMs: int('REGISTRY_TIMEOUT_MS', 15_000, 100, 600_000),
    maxResponseBytes: int('REGISTRY_MAX_RESPONSE_BYTES', 64 * 1024 * 1024, 1024, 1024 ** 3),
    cacheEntries: int('REGISTRY_CACHE_ENTRIES', 2000, 0, 1_000_000),
    maxVersionDetails: int('REGISTRY_MAX_VERSION_DETAILS', 40, 1, 10_000),
    npmDownloadsUrl: url('NPM_DOWNLOADS_URL', ['https:', 'http:']),
  };
}

function scanSettings(
  env: Env,
  { int, bool }: SettingReaders,
  dataDir: string,
  problems: string[],
): Config['scans'] {
  return {
    allowFileUrls: bool('SCAN_ALLOW_FILE_URLS', !env.DATABASE_URL),
    maxCheckoutBytes: int('SCAN_MAX_CHECKOUT_BYTES', 512 * 1024 * 1024, 1024, 2 ** 50),
    checkoutTimeoutSeconds: int('SCAN_CHECKOUT_TIMEOUT_SECONDS', 300, 1, 24 * 3600),
    heartbeatSeconds: int('SCAN_HEARTBEAT_SECONDS', 10, 1, 3600),
    staleAfterSeconds: int('SCAN_STALE_AFTER_SECONDS', 120, 5, 7 * 24 * 3600),
    maxAttempts: int('SCAN_MAX_ATTEMPTS', 3, 1, 100),
    gitCaFile: env.SCAN_GIT_CA_FILE || null,
    extractionHeapMb: int('SCAN_EXTRACTION_HEAP_MB', 512, 64, 16384),
    fileUrlRoots: fileRoots(env.SCAN_FILE_URL_ROOTS, dataDir, problems),
  };
}

function outboundSettings(env: Env, problems: string[]): Config['outbound'] {
  return {
    allow: {
      git: cidrList('OUTBOUND_ALLOW_GIT_CIDRS', env.OUTBOUND_ALLOW_GIT_CIDRS, problems),
      webhooks: cidrList(
        'OUTBOUND_ALLOW_WEBHOOK_CIDRS',
        env.OUTBOUND_ALLOW_WEBHOOK_CIDRS,
        problems,
      ),
    },
    tenantAllow: tenantCidrs(env.OUTBOUND_TENANT_ALLOW_CIDRS, problems),
  };
}

/**
 * The data directory when DATA_DIR is unset: the user's own data directory, so that every
 * command finds the same database wherever it runs (never the working directory). Linux and
 * other Unix: $XDG_DATA_HOME/driftwatch, else ~/.local/share/driftwatch (the XDG base directory
 * rule); macOS: ~/Library/Application Support/driftwatch; Windows: %LOCALAPPDATA%\driftwatch.
 */
export function defaultDataDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  if (platform === 'win32') {
    return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'driftwatch');
  }
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'driftwatch');
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'driftwatch');
}

/**
 * `machine`: the defaults a running service takes from this machine (the ecosystem clients'
 * registries, the public OSV feed), read once by the process entry; none unless passed.
 */
export function loadConfig(
  env: Env = process.env,
  overrides: Partial<Config> = {},
  machine: MachineDefaults = NO_MACHINE_DEFAULTS,
): Config {
  const problems: string[] = [];
  const read = settingReaders(env, problems);
  const { int, bool, oneOf, url, cron } = read;
  const masterKey = env.DRIFTWATCH_MASTER_KEY || null;
  if (masterKey && Buffer.from(masterKey, 'base64').length !== 32) {
    problems.push('DRIFTWATCH_MASTER_KEY must be 32 bytes encoded as base64');
  }

  const registryOrigins = {} as Record<Ecosystem, SettingOrigin>;
  const registry = registryReader(env, read, machine, registryOrigins);
  const osv = osvFeedSetting(env, read, machine);

  const dataDir = env.DATA_DIR ? resolve(env.DATA_DIR) : defaultDataDir(env);
  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    masterKey,
    logLevel: oneOf('LOG_LEVEL', 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ]),
    logFormat: oneOf('LOG_FORMAT', 'auto', ['auto', 'pretty', 'json']),
    environment: env.DRIFTWATCH_ENV || 'development',
    role: oneOf<ServiceRole>('DRIFTWATCH_ROLE', 'all', ['api', 'worker', 'all']),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    trustProxy: bool('TRUST_PROXY', false),
    rateLimits: {
      tenantPerMinute: int('RATE_LIMIT_TENANT_PER_MINUTE', 2000, 1, 10_000_000),
      tokenPerMinute: int('RATE_LIMIT_TOKEN_PER_MINUTE', 600, 1, 10_000_000),
      ipPerMinute: int('RATE_LIMIT_IP_PER_MINUTE', 60, 1, 10_000_000),
    },
    demoTenantTtlHours: int('DEMO_TENANT_TTL_HOURS', 24, 1, 24 * 365),
    dataExportTtlHours: int('DATA_EXPORT_TTL_HOURS', 24, 1, 24 * 30),
    tokenUsageFlushSeconds: int('TOKEN_USAGE_FLUSH_SECONDS', 30, 1, 3600),
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 500),
    databaseJobPoolSize: int('DATABASE_JOB_POOL_SIZE', 4, 1, 500),
    databaseAcquireTimeoutMs: int('DATABASE_ACQUIRE_TIMEOUT_MS', 2000, 50, 600_000),
    shutdownTimeoutSeconds: int('SHUTDOWN_TIMEOUT_SECONDS', 25, 1, 3600),
    metrics: {
      port: env.METRICS_PORT ? int('METRICS_PORT', 0, 1, 65535) : null,
      host: env.METRICS_HOST || '127.0.0.1',
    },
    operatorToken: operatorToken(env.DRIFTWATCH_OPERATOR_TOKEN, problems),
    packageIntel: packageIntelSettings(read),
    osv: {
      feedUrl: osv.feedUrl,
      syncEcosystems: osvEcosystems(env.OSV_SYNC_ECOSYSTEMS, problems),
      syncSchedule: cron('OSV_SYNC_SCHEDULE', '23 * * * *'),
    },
    sources: sourceSettings(env, read),
    registries: registrySettings(read, registry),
    scans: scanSettings(env, read, dataDir, problems),
    outbound: outboundSettings(env, problems),
    webhooks: {
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      maxAttempts: int('WEBHOOK_MAX_ATTEMPTS', 18, 1, 100),
      retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 60_000, 1, 24 * 3600_000),
      retryMaxDelayMs: int('WEBHOOK_RETRY_MAX_DELAY_MS', 3 * 3600_000, 1, 7 * 24 * 3600_000),
      pollMs: int('WEBHOOK_POLL_MS', 250, 10, 3600_000),
      caFile: env.WEBHOOK_CA_FILE || null,
    },
    statusMail: {
      smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
      from: env.MAIL_FROM || 'Driftwatch status <status@localhost>',
      publicBaseUrl: (
        url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? 'http://localhost:8080'
      ).replace(/\/+$/, ''),
      maxAttempts: int('MAIL_MAX_ATTEMPTS', 8, 1, 100),
      retryBaseMs: int('MAIL_RETRY_BASE_MS', 60_000, 1, 24 * 3600_000),
      retryMaxDelayMs: int('MAIL_RETRY_MAX_DELAY_MS', 3600_000, 1, 7 * 24 * 3600_000),
      pollMs: int('MAIL_POLL_MS', 1000, 10, 3600_000),
      confirmResendMinutes: 10,
    },
    sbom: {
      importMaxBytes: int('SBOM_IMPORT_MAX_BYTES', 20 * 1024 * 1024, 1024, 1024 ** 3),
      maxComponents: int('SBOM_MAX_COMPONENTS', 50_000, 1, 10_000_000),
    },
    policies: {
      exceptionMaxDays: int('POLICY_EXCEPTION_MAX_DAYS', 365, 1, 36_500),
      verdictMaxPackages: int('IDE_VERDICTS_MAX_PACKAGES', 500, 1, 10_000),
      verdictBodyLimitBytes: int('IDE_VERDICTS_BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 ** 2),
    },
    // After `registries` and `osv`: their evaluation fills the origins in.
    origins: { registries: registryOrigins, osvFeed: osv.origin, warnings: machine.warnings },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...config, ...overrides };
}

import { createPrivateKey } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { SETTINGS } from './config-settings';
import {
  cidrList,
  fileRoots,
  operatorToken,
  osvEcosystems,
  type TenantAllowCidrs,
  tenantCidrs,
} from './config-values';
import type { Ecosystem } from './ecosystems/names';
import type { RegistriesSettings } from './ecosystems/registry-types';
import {
  type DefaultsOrigins,
  type MachineDefaults,
  NO_MACHINE_DEFAULTS,
  REGISTRY_SETTINGS,
  type SettingOrigin,
} from './registry-defaults/index';

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
  /** Days an unpaid invoice's tenant keeps its plan before falling back (docs/billing.md). */
  billingGraceDays: number;
  /** How often `lastUsedAtUtc` updates are flushed to the database (one write per token per flush). */
  tokenUsageFlushSeconds: number;
  /** Database pool size per process. */
  databasePoolSize: number;
  /** PostgreSQL: connections of the job workers' own pool per process (docs/operations.md). */
  databaseJobPoolSize: number;
  /** How long a request waits for a free connection before it gets 503 with Retry-After. */
  databaseAcquireTimeoutMs: number;
  /**
   * PostgreSQL only: a streaming replica for the routes marked `reads: 'replica'`
   * (docs/scaling.md#read-replica). Null: every read uses the primary.
   */
  databaseReadUrl: string | null;
  /** How long the replica may stay behind before the service stops asking it for as long. */
  databaseReadMaxLagMs: number;
  /** Bound of an orderly stop: draining requests, then jobs (docs/operations.md). */
  shutdownTimeoutSeconds: number;
  /** API roles: readiness is 503 this long before the listener closes, so a load balancer stops sending first. */
  shutdownDelayMs: number;
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
  /** Probes of the TLS endpoints tenants watch (docs/quantum.md#tls-observations). */
  tlsProbes: {
    /** Longest one connection of a probe may take (a probe makes up to three, in parallel). */
    timeoutMs: number;
  };
  /** The optional OpenAI-compatible model of POST /api/v1/ai/query (docs/questions.md#model). */
  aiModel: AiModelConfig | null;
}

/** Null when AI_MODEL_URL is unset: questions are answered by the parser and the engine only. */
export interface AiModelConfig {
  baseUrl: string;
  model: string;
  /** The key as configured: plain, or sealed with the master key (`v1.…`); sealed in memory. */
  apiKey: string | null;
  timeoutMs: number;
  /** Networks the endpoint may be on although internal (a model served on the private network). */
  allowCidrs: string[];
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
  /**
   * `status-webhooks`: anonymous status subscribers' targets (never a tenant's list);
   * `tls-probes`: the TLS endpoints tenants watch (docs/quantum.md).
   */
  allow: {
    git: string[];
    webhooks: string[];
    'status-webhooks'?: string[];
    'tls-probes'?: string[];
  };
  tenantAllow: TenantAllowCidrs;
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
  /** Dependencies one scan collects; a file that would pass it keeps none and says so. */
  maxDependencies: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** A setting's default as config-settings.ts documents it: the one place defaults are written. */
function documentedDefault(name: string): string {
  const setting = SETTINGS.find(([documented]) => documented === name);
  if (!setting) throw new Error(`${name} is not listed in src/config-settings.ts`);
  return setting[1];
}

function documentedInteger(name: string): number {
  const text = documentedDefault(name);
  if (!/^-?\d+$/.test(text)) throw new Error(`${name}'s documented default is not an integer`);
  return Number(text);
}

function documentedBoolean(name: string): boolean {
  const text = documentedDefault(name);
  if (text !== 'true' && text !== 'false') {
    throw new Error(`${name}'s documented default is not true or false`);
  }
  return text === 'true';
}

/** The typed readers of the environment; each pushes what is wrong with its setting to `problems`. */
function settingReaders(env: Env, problems: string[]) {
  const int = (
    name: string,
    min: number,
    max: number,
    fallback: number = documentedInteger(name),
  ): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean = documentedBoolean(name)): boolean => {
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
  const useClients = bool('REGISTRY_CLIENT_DEFAULTS');
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
    staleAfterHours: int('PACKAGE_METADATA_STALE_HOURS', 1, 24 * 365),
    enrichChunkSize: int('PACKAGE_ENRICH_CHUNK_SIZE', 1, 1000),
    refreshBatchSize: int('PACKAGE_REFRESH_BATCH_SIZE', 1, 100_000),
    fetchConcurrency: int('PACKAGE_FETCH_CONCURRENCY', 1, 64),
    unmaintainedAfterDays: int('PACKAGE_UNMAINTAINED_DAYS', 1, 36_500),
    recentlyPublishedHours: int('PACKAGE_RECENTLY_PUBLISHED_HOURS', 1, 24 * 365),
    endOfLifeAfterDays: int('PACKAGE_END_OF_LIFE_DAYS', 1, 36_500),
    benchmarkMinimumTenants: int('BENCHMARK_MINIMUM_TENANTS', 1, 1_000_000),
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
    allowCustomBaseUrls: bool('SCM_ALLOW_CUSTOM_BASE_URLS'),
    requestTimeoutMs: int('SCM_REQUEST_TIMEOUT_MS', 100, 600_000),
    webhookBodyLimitBytes: int('WEBHOOK_BODY_LIMIT_BYTES', 1024, 1024 ** 3),
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
    timeoutMs: int('REGISTRY_TIMEOUT_MS', 100, 600_000),
    maxResponseBytes: int('REGISTRY_MAX_RESPONSE_BYTES', 1024, 1024 ** 3),
    cacheEntries: int('REGISTRY_CACHE_ENTRIES', 0, 1_000_000),
    maxVersionDetails: int('REGISTRY_MAX_VERSION_DETAILS', 1, 10_000),
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
    maxCheckoutBytes: int('SCAN_MAX_CHECKOUT_BYTES', 1024, 2 ** 50),
    checkoutTimeoutSeconds: int('SCAN_CHECKOUT_TIMEOUT_SECONDS', 1, 24 * 3600),
    heartbeatSeconds: int('SCAN_HEARTBEAT_SECONDS', 1, 3600),
    staleAfterSeconds: int('SCAN_STALE_AFTER_SECONDS', 5, 7 * 24 * 3600),
    maxAttempts: int('SCAN_MAX_ATTEMPTS', 1, 100),
    gitCaFile: env.SCAN_GIT_CA_FILE || null,
    extractionHeapMb: int('SCAN_EXTRACTION_HEAP_MB', 64, 16384),
    maxDependencies: int('SCAN_MAX_DEPENDENCIES', 1, 100_000_000),
    fileUrlRoots: fileRoots(env.SCAN_FILE_URL_ROOTS, dataDir, problems),
  };
}

function aiModelSettings(
  env: Env,
  { int, url }: SettingReaders,
  problems: string[],
): AiModelConfig | null {
  const baseUrl = url('AI_MODEL_URL', ['https:', 'http:']);
  if (!baseUrl) return null;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model: env.AI_MODEL_NAME || 'gpt-4o-mini',
    apiKey: env.AI_MODEL_API_KEY || null,
    timeoutMs: int('AI_MODEL_TIMEOUT_MS', 100, 120_000, 10_000),
    allowCidrs: cidrList('AI_MODEL_ALLOW_CIDRS', env.AI_MODEL_ALLOW_CIDRS, problems),
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
      'status-webhooks': cidrList(
        'OUTBOUND_ALLOW_STATUS_WEBHOOK_CIDRS',
        env.OUTBOUND_ALLOW_STATUS_WEBHOOK_CIDRS,
        problems,
      ),
      'tls-probes': cidrList(
        'OUTBOUND_ALLOW_TLS_PROBE_CIDRS',
        env.OUTBOUND_ALLOW_TLS_PROBE_CIDRS,
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function policySettings({ int }: SettingReaders): Config['policies'] {
  return {
    exceptionMaxDays: int('POLICY_EXCEPTION_MAX_DAYS', 1, 36_500),
    verdictMaxPackages: int('IDE_VERDICTS_MAX_PACKAGES', 1, 10_000),
    verdictBodyLimitBytes: int('IDE_VERDICTS_BODY_LIMIT_BYTES', 1024, 64 * 1024 ** 2),
  };
}

function webhookSettings(env: Env, { int }: SettingReaders): Config['webhooks'] {
  return {
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 100, 120_000),
    maxAttempts: int('WEBHOOK_MAX_ATTEMPTS', 1, 100),
    retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 1, 24 * 3600_000),
    retryMaxDelayMs: int('WEBHOOK_RETRY_MAX_DELAY_MS', 1, 7 * 24 * 3600_000),
    pollMs: int('WEBHOOK_POLL_MS', 10, 3600_000),
    caFile: env.WEBHOOK_CA_FILE || null,
  };
}

function statusMailSettings(env: Env, { int, url }: SettingReaders): Config['statusMail'] {
  const smtpUrl = url('SMTP_URL', ['smtp:', 'smtps:']);
  const publicBaseUrl = url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? 'http://localhost:8080';
  return {
    smtpUrl,
    from: env.MAIL_FROM || 'Driftwatch status <status@localhost>',
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    maxAttempts: int('MAIL_MAX_ATTEMPTS', 1, 100),
    retryBaseMs: int('MAIL_RETRY_BASE_MS', 1, 24 * 3600_000),
    retryMaxDelayMs: int('MAIL_RETRY_MAX_DELAY_MS', 1, 7 * 24 * 3600_000),
    pollMs: int('MAIL_POLL_MS', 10, 3600_000),
    confirmResendMinutes: 10,
  };
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
    port: int('PORT', 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    masterKey,
    logLevel: oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    logFormat: oneOf('LOG_FORMAT', 'auto', ['auto', 'pretty', 'json']),
    environment: env.DRIFTWATCH_ENV || 'development',
    role: oneOf<ServiceRole>('DRIFTWATCH_ROLE', 'all', ['api', 'worker', 'all']),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024, 1024 * 1024 * 1024),
    trustProxy: bool('TRUST_PROXY'),
    rateLimits: {
      tenantPerMinute: int('RATE_LIMIT_TENANT_PER_MINUTE', 1, 10_000_000),
      tokenPerMinute: int('RATE_LIMIT_TOKEN_PER_MINUTE', 1, 10_000_000),
      ipPerMinute: int('RATE_LIMIT_IP_PER_MINUTE', 1, 10_000_000),
    },
    demoTenantTtlHours: int('DEMO_TENANT_TTL_HOURS', 1, 24 * 365),
    dataExportTtlHours: int('DATA_EXPORT_TTL_HOURS', 1, 24 * 30),
    billingGraceDays: int('BILLING_GRACE_DAYS', 0, 365),
    tokenUsageFlushSeconds: int('TOKEN_USAGE_FLUSH_SECONDS', 1, 3600),
    databasePoolSize: int('DATABASE_POOL_SIZE', 1, 500),
    databaseJobPoolSize: int('DATABASE_JOB_POOL_SIZE', 1, 500),
    databaseAcquireTimeoutMs: int('DATABASE_ACQUIRE_TIMEOUT_MS', 50, 600_000),
    databaseReadUrl: url('DATABASE_READ_URL', ['postgres:', 'postgresql:']),
    databaseReadMaxLagMs: int('DATABASE_READ_MAX_LAG_MS', 0, 3_600_000),
    shutdownTimeoutSeconds: int('SHUTDOWN_TIMEOUT_SECONDS', 1, 3600),
    shutdownDelayMs: int('SHUTDOWN_DELAY_MS', 0, 600_000),
    metrics: {
      port: env.METRICS_PORT ? int('METRICS_PORT', 1, 65535, 0) : null,
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
    webhooks: webhookSettings(env, read),
    statusMail: statusMailSettings(env, read),
    sbom: {
      importMaxBytes: int('SBOM_IMPORT_MAX_BYTES', 1024, 1024 ** 3),
      maxComponents: int('SBOM_MAX_COMPONENTS', 1, 10_000_000),
    },
    policies: policySettings(read),
    tlsProbes: { timeoutMs: int('TLS_PROBE_TIMEOUT_MS', 100, 120_000) },
    aiModel: aiModelSettings(env, read, problems),
    // After `registries` and `osv`: their evaluation fills the origins in.
    origins: { registries: registryOrigins, osvFeed: osv.origin, warnings: machine.warnings },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...config, ...overrides };
}

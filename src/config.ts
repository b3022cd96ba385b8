import { resolve } from 'node:path';

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
  environment: string;
  role: ServiceRole;
  bodyLimitBytes: number;
  trustProxy: boolean;
  rateLimits: { tenantPerMinute: number; tokenPerMinute: number; ipPerMinute: number };
  demoTenantTtlHours: number;
  /** How often `lastUsedAtUtc` updates are flushed to the database (one write per token per flush). */
  tokenUsageFlushSeconds: number;
  /** Database pool size per process. */
  databasePoolSize: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Settings, their defaults and documentation — the README table is written from this list. */
export const SETTINGS = [
  ['PORT', '8080', 'HTTP port'],
  ['HOST', '0.0.0.0', 'interface to listen on'],
  [
    'DATABASE_URL',
    '(unset: embedded)',
    'PostgreSQL connection string; unset runs the embedded database',
  ],
  ['DATA_DIR', './data', 'embedded database files, lock file and generated master key'],
  ['REDIS_URL', '(unset)', 'Redis for rate-limit counters shared by several processes'],
  [
    'DRIFTWATCH_MASTER_KEY',
    '(embedded: generated)',
    'base64 32-byte key encrypting provider secrets',
  ],
  ['LOG_LEVEL', 'info', 'fatal, error, warn, info, debug, trace or silent'],
  ['DRIFTWATCH_ENV', 'development', 'environment name reported by /api/v1/version'],
  ['DRIFTWATCH_ROLE', 'all', 'api, worker or all (also `driftwatch serve --role`)'],
  ['BODY_LIMIT_BYTES', '1048576', 'largest accepted request body (413 above)'],
  ['TRUST_PROXY', 'false', 'take the client IP from X-Forwarded-For'],
  ['RATE_LIMIT_TENANT_PER_MINUTE', '2000', 'per-tenant bucket (plans may lower it)'],
  ['RATE_LIMIT_TOKEN_PER_MINUTE', '600', 'per-token bucket (plans may lower it)'],
  ['RATE_LIMIT_IP_PER_MINUTE', '60', 'per-IP bucket for unauthenticated requests'],
  ['DEMO_TENANT_TTL_HOURS', '24', 'lifetime of demo tenants from POST /api/v1/auth/demo'],
  ['TOKEN_USAGE_FLUSH_SECONDS', '30', 'how often lastUsedAtUtc is written'],
  ['DATABASE_POOL_SIZE', '10', 'connections per process'],
] as const;

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];

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

  const masterKey = env.DRIFTWATCH_MASTER_KEY || null;
  if (masterKey && Buffer.from(masterKey, 'base64').length !== 32) {
    problems.push('DRIFTWATCH_MASTER_KEY must be 32 bytes encoded as base64');
  }

  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: resolve(env.DATA_DIR || './data'),
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
    tokenUsageFlushSeconds: int('TOKEN_USAGE_FLUSH_SECONDS', 30, 1, 3600),
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 500),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...config, ...overrides };
}

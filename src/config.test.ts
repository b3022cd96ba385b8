import { tmpdir, userInfo } from 'node:os';
import { describe, expect, test } from 'vitest';
import { ConfigError, defaultDataDir, loadConfig } from './config';
import { SETTINGS } from './config-settings';
import { DEFAULT_RISK_SETTINGS } from './intel/risk/indicators';

describe('config', () => {
  test('defaults describe the embedded mode', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: null,
      redisUrl: null,
      role: 'all',
      bodyLimitBytes: 1048576,
    });
    expect(config.rateLimits).toEqual({
      tenantPerMinute: 2000,
      tokenPerMinute: 600,
      ipPerMinute: 60,
    });
  });

  test('a bad setting stops start-up with a message naming it', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        DRIFTWATCH_ROLE: 'boss',
        DRIFTWATCH_MASTER_KEY: 'short',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'DRIFTWATCH_ROLE', 'DRIFTWATCH_MASTER_KEY'])
      expect(message).toContain(name);
  });

  test('DATABASE_URL and REDIS_URL switch the stores', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://127.0.0.1:5432/dw',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config.databaseUrl).toBe('postgres://127.0.0.1:5432/dw');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
  });

  test('DATABASE_READ_URL is unset by default, a postgres URL otherwise', () => {
    expect(loadConfig({}).databaseReadUrl).toBeNull();
    expect(loadConfig({}).databaseReadMaxLagMs).toBe(5000);
    const config = loadConfig({
      DATABASE_URL: 'postgres://127.0.0.1:5432/dw',
      DATABASE_READ_URL: 'postgres://127.0.0.1:5433/dw',
      DATABASE_READ_MAX_LAG_MS: '250',
    });
    expect(config.databaseReadUrl).toBe('postgres://127.0.0.1:5433/dw');
    expect(config.databaseReadMaxLagMs).toBe(250);
    expect(() => loadConfig({ DATABASE_READ_URL: 'mysql://x' })).toThrow('DATABASE_READ_URL');
  });
});

describe('defaults', () => {
  test('are the ones config-settings.ts documents: each numeric one, set to its default, changes nothing', () => {
    const defaults = loadConfig({});
    const numeric = SETTINGS.filter(([, value]) => /^-?\d+$/.test(value));
    expect(numeric.length).toBeGreaterThan(40);
    for (const [name, value] of numeric) {
      expect(loadConfig({ [name]: value }), name).toEqual(defaults);
      // And the default is really used: another value changes the configuration.
      expect(loadConfig({ [name]: String(Number(value) + 1) }), name).not.toEqual(defaults);
    }
  });

  test("the risk rules' own defaults agree with the documented settings", () => {
    const { packageIntel } = loadConfig({});
    expect({
      unmaintainedAfterDays: packageIntel.unmaintainedAfterDays,
      recentlyPublishedHours: packageIntel.recentlyPublishedHours,
    }).toEqual(DEFAULT_RISK_SETTINGS);
  });
});

describe('metrics and operator settings', () => {
  test('off by default; the metrics port binds to loopback unless told otherwise', () => {
    const config = loadConfig({});
    expect(config.metrics).toEqual({ port: null, host: '127.0.0.1' });
    expect(config.operatorToken).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
  });

  test('a bad metrics port or a short operator token is refused by name', () => {
    for (const [env, name] of [
      [{ METRICS_PORT: '0' }, 'METRICS_PORT'],
      [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
      [{ DRIFTWATCH_OPERATOR_TOKEN: 'short' }, 'DRIFTWATCH_OPERATOR_TOKEN'],
      [{ DRIFTWATCH_OPERATOR_TOKEN: 'sixteen chars or more' }, 'DRIFTWATCH_OPERATOR_TOKEN'],
    ] as const) {
      expect(() => loadConfig(env), name).toThrow(ConfigError);
      expect(() => loadConfig(env), name).toThrow(name);
    }
    expect(loadConfig({ DRIFTWATCH_OPERATOR_TOKEN: 'a'.repeat(16) }).operatorToken).toBe(
      'a'.repeat(16),
    );
  });
});

describe('the data directory', () => {
  test('DATA_DIR wins; otherwise the user data directory of the platform, never the working directory', () => {
    expect(loadConfig({ DATA_DIR: '/srv/dw' }).dataDir).toBe('/srv/dw');
    expect(defaultDataDir({ HOME: '/home/ada' }, 'linux')).toBe(
      '/home/ada/.local/share/driftwatch',
    );
    expect(defaultDataDir({ HOME: '/home/ada', XDG_DATA_HOME: '/data/ada' }, 'linux')).toBe(
      '/data/ada/driftwatch',
    );
    // The XDG rule: a relative XDG_DATA_HOME is invalid and ignored.
    expect(defaultDataDir({ HOME: '/home/ada', XDG_DATA_HOME: 'rel' }, 'linux')).toBe(
      '/home/ada/.local/share/driftwatch',
    );
    expect(defaultDataDir({ HOME: '/Users/ada' }, 'darwin')).toBe(
      '/Users/ada/Library/Application Support/driftwatch',
    );
    expect(loadConfig({ HOME: '/home/ada' }).dataDir).not.toContain(process.cwd());
  });

  test('tests never use the real home directory for data', () => {
    // vitest.config.ts points DATA_DIR and XDG_DATA_HOME of every test process at a temporary
    // directory; the processes tests spawn inherit them or get their own.
    const real = userInfo().homedir;
    expect(loadConfig(process.env).dataDir.startsWith(real)).toBe(false);
    expect(process.env.XDG_DATA_HOME?.startsWith(tmpdir())).toBe(true);
  });
});

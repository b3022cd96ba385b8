import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config';

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

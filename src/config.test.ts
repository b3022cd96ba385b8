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

import { buildApp } from './app';
import { loadConfig } from './config';
import type { Database } from './db/connection';
import { createTokenUsageTracker } from './domains/api-tokens/usage-tracker';
import { readBuildInfo, readCliVersion } from './domains/system/build-info';
import { createRateLimitStore } from './http/rate-limit';
import { createSecretBox } from './security/secret-box';

/**
 * The service's OpenAPI document without a database or network: the web app's client types are
 * generated from it at build time (scripts/build.mjs, web/README.md). Building the routes only
 * reads their schemas; a database touched while doing so is a bug, and fails the build loudly.
 */
/** Reading a handle is fine (routes keep `database.system`); calling through one throws. */
function unusableDatabase(path: string): Database {
  const target = () => {};
  return new Proxy(target, {
    get: (_target, property) =>
      property === 'then' ? undefined : unusableDatabase(`${path}.${String(property)}`),
    apply: () => {
      throw new Error(`the OpenAPI document must not need the database (called ${path})`);
    },
  }) as unknown as Database;
}

export async function offlineOpenApiDocument(): Promise<unknown> {
  const database = unusableDatabase('database');
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    database,
    secretBox: createSecretBox(Buffer.alloc(32).toString('base64')),
    rateLimits: createRateLimitStore(null),
    tokenUsage: createTokenUsageTracker(database),
    buildInfo: readBuildInfo('build'),
    cliVersion: readCliVersion(),
  });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

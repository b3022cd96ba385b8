import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { TEST_TIER_VARIABLE, testTiers } from './test/support/test-tiers';

const tiers = testTiers(import.meta.dirname);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's process and its module cache: each file no longer pays for
    // importing the service (about 3 s a file on 2 cores) and PGlite's WebAssembly compile. Files
    // must leave the process as they found it (environment, listeners, spies).
    isolate: false,
    // The bundled `driftwatch audit` keeps an advisory index in the user's cache, and the
    // service and CLI keep their data in the user's data directory by default: tests (and the
    // processes they spawn with this environment) keep theirs out of the home directory.
    env: {
      DRIFTWATCH_CACHE_DIR: join(tmpdir(), `driftwatch-test-cache-${process.pid}`),
      DATA_DIR: join(tmpdir(), `driftwatch-test-data-${process.pid}`),
      XDG_DATA_HOME: join(tmpdir(), `driftwatch-test-xdg-${process.pid}`),
    },
    // Two tiers (test/support/test-tiers.ts, README "Tests"): `npm test` runs both on the
    // embedded database; `npm run test:database` runs the database tier alone (on PostgreSQL
    // when TEST_DATABASE_URL is set), so no file that needs no database runs twice in CI.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit,
          env: { [TEST_TIER_VARIABLE]: 'unit' },
        },
      },
      {
        extends: true,
        test: {
          name: 'database',
          include: tiers.database,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});

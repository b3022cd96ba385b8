import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'cli/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's process and its module cache: each file no longer pays for
    // importing the service (about 3 s a file on 2 cores) and PGlite's WebAssembly compile. Files
    // must leave the process as they found it (environment, listeners, spies).
    isolate: false,
    globalSetup: ['test/support/global-setup.ts'],
    // The bundled `driftwatch audit` keeps an advisory index in the user's cache, and the
    // service and CLI keep their data in the user's data directory by default: tests (and the
    // processes they spawn with this environment) keep theirs out of the home directory.
    env: {
      DRIFTWATCH_CACHE_DIR: join(tmpdir(), `driftwatch-test-cache-${process.pid}`),
      DATA_DIR: join(tmpdir(), `driftwatch-test-data-${process.pid}`),
      XDG_DATA_HOME: join(tmpdir(), `driftwatch-test-xdg-${process.pid}`),
    },
  },
});

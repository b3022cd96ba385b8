import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'cli/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The bundled `driftwatch audit` keeps an advisory index in the user's cache by default;
    // tests that spawn it keep theirs out of the home directory.
    env: { DRIFTWATCH_CACHE_DIR: join(tmpdir(), `driftwatch-test-cache-${process.pid}`) },
  },
});

import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database (PGlite tarball) every test file's database starts from. */
    embeddedSnapshotPath: string | null;
    /** A migrated PostgreSQL database every test file's scratch database is copied from. */
    postgresTemplate: string | null;
  }
}

/**
 * What test/support/global-setup.ts prepared once for the run; null outside a vitest worker
 * (benches and scripts import the test support too) and when it prepared nothing.
 */
export function provided(key: 'embeddedSnapshotPath' | 'postgresTemplate'): string | null {
  try {
    return inject(key) ?? null;
  } catch {
    return null;
  }
}

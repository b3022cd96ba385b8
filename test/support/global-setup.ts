import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedServer } from '../../src/db/embedded';
import { migrate } from '../../src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database (PGlite tarball) every test file's database starts from. */
    embeddedSnapshotPath: string | null;
  }
}

/**
 * Once per run, before any test file: on the embedded database, initdb and every migration run
 * here once, and each file's database starts from the copy (test/support/test-app.ts), about
 * 0.3 s instead of 2–8 s per file on a 2-core machine. On PostgreSQL each file still gets a
 * fresh database of its own, migrated there.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('embeddedSnapshotPath', null);
    return () => {};
  }
  const server = await startEmbeddedServer(null);
  const pool = new pg.Pool({ host: server.socketDir, port: 5432, user: 'postgres', max: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'driftwatch-snapshot-'));
  try {
    await migrate(pool);
    await pool.end();
    const snapshot = await server.snapshot();
    const path = join(dir, 'migrated.tar');
    writeFileSync(path, Buffer.from(await snapshot.arrayBuffer()));
    project.provide('embeddedSnapshotPath', path);
  } finally {
    await server.stop();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}

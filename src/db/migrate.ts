import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Arbitrary constant identifying Driftwatch's migration lock among advisory locks.
const MIGRATION_LOCK_ID = 7_301_946_551;

export interface MigrationResult {
  applied: string[];
  skipped: string[];
}

/**
 * Numbers two shipped migrations share (0016_analytics_export and 0016_analytics_summary). A
 * database records each migration by file name, so renaming one would apply it a second time on
 * every existing installation; they stay, and a test allows no other repeat.
 */
export const SHIPPED_DUPLICATE_NUMBERS: readonly string[] = ['0016'];

/** Each migration whose number repeats the one before it (a shipped duplicate excepted). */
export function migrationNumberProblems(sortedNames: readonly string[]): string[] {
  const problems: string[] = [];
  for (let i = 1; i < sortedNames.length; i++) {
    const [previous, name] = [sortedNames[i - 1] ?? '', sortedNames[i] ?? ''];
    const number = name.slice(0, 4);
    if (number !== previous.slice(0, 4) || SHIPPED_DUPLICATE_NUMBERS.includes(number)) continue;
    problems.push(`${name} repeats the number of ${previous}`);
  }
  return problems;
}

export function listMigrations(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/**
 * Applies the plain SQL migrations in order, each in its own transaction, under an advisory lock
 * so that concurrent processes starting together apply each file once. Migration files never
 * import application code ("frozen in time").
 */
export async function migrate(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const client = await pool.connect();
  const result: MigrationResult = { applied: [], skipped: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
        (row) => row.name,
      ),
    );
    for (const name of listMigrations(dir)) {
      if (done.has(name)) {
        result.skipped.push(name);
        continue;
      }
      const sql = readFileSync(join(dir, name), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(error as Error).message}`);
      }
      result.applied.push(name);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
  return result;
}

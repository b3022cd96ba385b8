import { spawn, spawnSync } from 'node:child_process';

/**
 * PostgreSQL's own tools for backups of a PostgreSQL database (docs/scaling.md#backups):
 * pg_dump and pg_restore from PATH, of the server's major version or later (Debian and Ubuntu:
 * the postgresql-client-NN package). Missing tools are said before anything is written.
 */
export interface PgTools {
  pgDump: string;
  pgRestore: string;
}

/** Refused for a reason the operator can act on: the message says which. */
export class BackupRefusedError extends Error {
  override name = 'BackupRefusedError';
}

function versionOf(tool: string): string | null {
  const result = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim();
}

/** pg_dump and pg_restore, or a refusal that says how to get them. */
export function findPgTools(): PgTools {
  const missing = ['pg_dump', 'pg_restore'].filter((tool) => versionOf(tool) === null);
  if (missing.length > 0) {
    throw new BackupRefusedError(
      `${missing.join(' and ')} not found on PATH: backups of a PostgreSQL database use PostgreSQL's own tools. Install the client tools of the server's major version or later (Debian/Ubuntu: postgresql-client-NN) and try again.`,
    );
  }
  return { pgDump: 'pg_dump', pgRestore: 'pg_restore' };
}

/** Runs a tool to completion; its standard error becomes the failure's message. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} exited with code ${code}: ${stderr.trim()}`));
    });
  });
}

/**
 * The whole database (every schema: the job queue's too) in pg_dump's custom format: one
 * consistent snapshot (a repeatable-read transaction) while the service keeps running.
 */
export function runPgDump(tools: PgTools, url: string, file: string): Promise<void> {
  return run(tools.pgDump, ['--format=custom', `--file=${file}`, `--dbname=${url}`]);
}

/**
 * Into an empty database, stopping at the first error. Objects keep their owner and grants, so
 * the roles must exist in the target cluster (the same cluster, or one prepared with
 * `CREATE ROLE`; docs/scaling.md#backups).
 */
export function runPgRestore(tools: PgTools, url: string, file: string): Promise<void> {
  return run(tools.pgRestore, ['--exit-on-error', '--single-transaction', `--dbname=${url}`, file]);
}

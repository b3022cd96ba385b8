import { type ParseArgsConfig, parseArgs } from 'node:util';
import { isPlan, PLANS } from '../../src/core/plans';
import type { CommandOptions } from '../command';
import { withDatabase } from '../database';
import { UsageError } from '../errors';

const USAGE = `Usage: driftwatch admin create-tenant --name NAME --plan PLAN
       driftwatch admin create-token --tenant ID-OR-NAME [--name TOKEN-NAME]
       driftwatch admin import-osv <file-or-dir-or-url> [...] [--json]
       driftwatch admin import-kev <file> [--json]
       driftwatch admin status [--tenant ID-OR-NAME] [--json]
       driftwatch admin backup FILE
       driftwatch admin restore FILE

create-tenant creates a tenant and prints its first owner token once. Plans: ${PLANS.join(', ')}.
create-token prints a new owner token of an existing tenant once (a lost token cannot be shown
again); the tenant's audit log records it as api_token.create via driftwatch admin create-token.
status prints the database, its data directory and what it holds; with --tenant, also that
tenant's id and the folders its file:// repositories must lie in.
backup writes a consistent copy of the whole database to FILE (the embedded one while the service
runs; PostgreSQL through pg_dump) and names the master key by its fingerprint, never the key.
restore loads FILE into a new DATA_DIR, or into the new, empty database of DATABASE_URL
(pg_restore); it refuses when the master key is missing or is not the backup's.
See docs/scaling.md#backups.

Uses the same configuration as the server: DATABASE_URL, or the embedded database in DATA_DIR
(default: the user's data directory). When a service runs on that data directory, the command
goes through it; otherwise it opens the directory itself. Standard error names the database used.`;

/** `driftwatch admin <action> ...` */
export async function run(argv: string[], options: CommandOptions): Promise<number> {
  const [action, ...rest] = argv;
  if (action === 'import-osv') return (await import('./import-osv')).run(rest, options);
  if (action === 'import-kev') return (await import('./import-kev')).run(rest, options);
  if (action === 'status') return status(rest);
  if (action === 'backup') return (await import('./backup')).backup(rest);
  if (action === 'restore') return (await import('./backup')).restore(rest);
  if (action === 'create-tenant') return createTenant(rest);
  if (action === 'create-token') return createToken(rest);
  if (action === '--help' || action === '-h' || action === 'help') {
    console.log(USAGE);
    return 0;
  }
  throw new UsageError(
    action ? `unknown admin action "${action}"` : 'admin needs an action',
    'driftwatch admin --help',
  );
}

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message, 'driftwatch admin --help');
  }
}

async function createTenant(args: string[]): Promise<number> {
  const values = parse(args, { name: { type: 'string' }, plan: { type: 'string' } });
  const name = typeof values.name === 'string' ? values.name.trim() : '';
  if (!name) throw new UsageError('create-tenant needs --name NAME', 'driftwatch admin --help');
  if (!isPlan(values.plan)) {
    throw new UsageError(
      values.plan === undefined
        ? 'create-tenant needs --plan PLAN'
        : `unknown plan "${values.plan}"; plans: ${PLANS.join(', ')}`,
      'driftwatch admin --help',
    );
  }
  const plan = values.plan;
  const tenant = await withDatabase((perform) => perform('create-tenant', { name, plan }));
  console.log(`Created tenant "${tenant.name}" (${tenant.plan}), id ${tenant.tenantId}.`);
  console.log('Owner token (shown once, store it now):');
  console.log(tenant.ownerToken);
  return 0;
}

async function createToken(args: string[]): Promise<number> {
  const values = parse(args, { tenant: { type: 'string' }, name: { type: 'string' } });
  if (typeof values.tenant !== 'string' || values.tenant.trim() === '') {
    throw new UsageError('create-token needs --tenant ID-OR-NAME', 'driftwatch admin --help');
  }
  const input = {
    tenant: values.tenant,
    ...(typeof values.name === 'string' ? { name: values.name } : {}),
  };
  const created = await withDatabase((perform) => perform('create-token', input));
  console.log(
    `Created owner token "${created.name}" (id ${created.tokenId}) for tenant "${created.tenantName}" (${created.tenantId}).`,
  );
  console.log('Owner token (shown once, store it now):');
  console.log(created.ownerToken);
  return 0;
}

async function status(args: string[]): Promise<number> {
  const values = parse(args, { json: { type: 'boolean' }, tenant: { type: 'string' } });
  const input = typeof values.tenant === 'string' ? { tenant: values.tenant } : {};
  const result = await withDatabase((perform) => perform('status', input));
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
    return 0;
  }
  console.log(
    [
      `Engine:            ${result.engine}`,
      `Data directory:    ${result.dataDir}`,
      `Repositories root: ${result.fileUrlRoots.join(', ')}`,
      `Tenants:           ${result.tenants}`,
      `Advisories:        ${result.advisories}`,
      ...(result.tenant
        ? [
            `Tenant:            ${result.tenant.name} (${result.tenant.tenantId})`,
            `Its repositories:  ${result.tenant.fileUrlRoots.join(', ')}`,
          ]
        : []),
    ].join('\n'),
  );
  return 0;
}

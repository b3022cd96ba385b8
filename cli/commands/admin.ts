import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../src/config';
import { isPlan, PLANS } from '../../src/core/plans';
import { createTenantWithOwner } from '../../src/domains/tenants/service';
import { openServiceDatabase } from '../../src/service';

const USAGE = `Usage: driftwatch admin create-tenant --name NAME --plan PLAN
       driftwatch admin import-osv <file-or-dir-or-url> [...] [--json]

Creates a tenant and prints its first owner token once. Plans: ${PLANS.join(', ')}.
Uses the same configuration as the server (DATABASE_URL or the embedded DATA_DIR).`;

/** `driftwatch admin create-tenant --name NAME --plan PLAN` */
export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === 'import-osv') return (await import('./import-osv')).run(rest);
  if (action !== 'create-tenant') {
    console.error(USAGE);
    return 2;
  }
  let values: { name?: string; plan?: string };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, plan: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const name = values.name?.trim();
  if (!name || !values.plan) {
    console.error(USAGE);
    return 2;
  }
  if (!isPlan(values.plan)) {
    console.error(`Unknown plan "${values.plan}". Plans: ${PLANS.join(', ')}.`);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const database = await openServiceDatabase(config);
  try {
    const tenant = await createTenantWithOwner(database, { name, plan: values.plan });
    console.log(`Created tenant "${tenant.name}" (${tenant.plan}), id ${tenant.tenantId}.`);
    console.log('Owner token (shown once, store it now):');
    console.log(tenant.ownerToken);
    return 0;
  } finally {
    await database.close();
  }
}

import { parseArgs } from 'node:util';
import type { ServiceRole } from '../../src/config';
import { main } from '../../src/main';

const ROLES: ServiceRole[] = ['api', 'worker', 'all'];

/** `driftwatch serve [--role api|worker|all]`: the API, the job workers, or both in one process. */
export async function run(argv: string[]): Promise<number> {
  let role: string | undefined;
  try {
    ({
      values: { role },
    } = parseArgs({ args: argv, options: { role: { type: 'string' } }, strict: true }));
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: driftwatch serve [--role api|worker|all]`);
    return 2;
  }
  if (role !== undefined && !ROLES.includes(role as ServiceRole)) {
    console.error(`--role must be one of ${ROLES.join(', ')}`);
    return 2;
  }
  await main(role as ServiceRole | undefined);
  // The server keeps the process alive until a signal stops it.
  return new Promise<number>(() => {});
}

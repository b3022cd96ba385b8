import { parseArgs } from 'node:util';
import type { ServiceRole } from '../../src/config';
import { main } from '../../src/main';
import type { CommandOptions } from '../command';
import { UsageError } from '../errors';

const ROLES: ServiceRole[] = ['api', 'worker', 'all'];
const HELP = 'driftwatch serve [--role api|worker|all]';

/** `driftwatch serve [--role api|worker|all]`: the API, the job workers, or both in one process. */
export async function run(argv: string[], options: CommandOptions): Promise<number> {
  let role: string | undefined;
  try {
    ({
      values: { role },
    } = parseArgs({ args: argv, options: { role: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message, HELP);
  }
  if (role !== undefined && !ROLES.includes(role as ServiceRole)) {
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}`, HELP);
  }
  await main(role as ServiceRole | undefined, options);
  // The server keeps the process alive until a signal stops it.
  return new Promise<number>(() => {});
}

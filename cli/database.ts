import { resolve } from 'node:path';
import { type Config, loadConfig } from '../src/config';
import { DataDirLockedError } from '../src/db/embedded';
import { findOwner } from '../src/operator/channel';
import {
  type OperationName,
  type OperationResult,
  type OperatorContext,
  runOperation,
} from '../src/operator/operations';
import { servicesElsewhere } from '../src/operator/service-record';
import { readMasterKey } from '../src/security/secret-box';
import { describeDatabase, openServiceDatabase, type StepReporter } from '../src/service';

/** Runs one operation: through the data directory's owner, or in this process. */
export type Perform = <N extends OperationName>(
  name: N,
  input: unknown,
) => Promise<OperationResult<N>>;

/** How long a command waits for a service that is still starting (a loaded machine is slow). */
const OWNER_START_WAIT_MS = 120_000;

/** Start-up steps of a database this command opens itself, on standard error. */
const stepsOnStderr: StepReporter = (message) => {
  console.error(`${message} …`);
  const started = performance.now();
  return (done) =>
    console.error(`${done} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
};

/** An operation's path argument, made absolute here: the owner's working directory is not ours. */
export function absoluteSource(source: string): string {
  return /^https?:\/\//i.test(source) ? source : resolve(source);
}

async function inThisProcess<T>(
  config: Config,
  work: (perform: Perform) => Promise<T>,
): Promise<T> {
  const database = await openServiceDatabase(config, stepsOnStderr);
  const context: OperatorContext = {
    database,
    dataDir: config.dataDir,
    fileUrlRoots: config.scans.fileUrlRoots,
    masterKey: readMasterKey(config.masterKey, config.dataDir),
  };
  try {
    return await work((name, input) => runOperation(context, name, input));
  } finally {
    await database.close();
  }
}

/**
 * A service running on another database than this command's (DATABASE_URL exported in its shell
 * only) is said on standard error: the command's answer is not that service's.
 */
function noteServicesElsewhere(config: Config, where: string): void {
  for (const other of servicesElsewhere(config.dataDir, where)) {
    const hint = other.database.startsWith('PostgreSQL')
      ? "set DATABASE_URL to the service's in this shell too"
      : 'unset DATABASE_URL in this shell to reach it';
    console.error(
      `Note: a service (pid ${other.pid}${other.address ? `, ${other.address}` : ''}) runs on ${other.database}, not on this command's ${where}; ${hint}.`,
    );
  }
}

/**
 * Gives `work` the database of the configuration (docs/operations.md#operator-commands) and says
 * on standard error which one it is. An embedded data directory has one owner: when a service
 * runs on it, every operation goes through that service's operator channel; otherwise this
 * process opens the directory (and, should a service start meanwhile, goes through it after
 * all). PostgreSQL has no owner: the command connects.
 */
export async function withDatabase<T>(work: (perform: Perform) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const where = describeDatabase(config);
  noteServicesElsewhere(config, where);
  if (config.databaseUrl) {
    console.error(`Database: ${where}`);
    return inThisProcess(config, work);
  }
  for (let attempt = 0; ; attempt++) {
    const owner = await findOwner(config.dataDir, {
      waitMs: OWNER_START_WAIT_MS,
      onWait: (pid) => console.error(`Waiting for the service (pid ${pid}) to finish starting …`),
    });
    if (owner) {
      console.error(`Database: ${where} (through the running service, pid ${owner.pid})`);
      return work(owner.call);
    }
    try {
      console.error(`Database: ${where} (opened by this command: no service is running)`);
      return await inThisProcess(config, work);
    } catch (error) {
      // A service took the directory between the look and the open: go through it instead.
      if (!(error instanceof DataDirLockedError) || attempt > 0) throw error;
    }
  }
}

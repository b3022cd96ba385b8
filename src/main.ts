import { ConfigError, loadConfig, type ServiceRole } from './config';
import { DataDirLockedError } from './db/embedded';
import { createServiceLogger, type ServiceLogger } from './logger';
import { type RunningService, startService } from './service';

interface ProcessState {
  logger: ServiceLogger;
  service: RunningService | null;
  /** Set once stopping began: the exit code it ends with. */
  exiting: number | null;
  /** Safety net past the stop's own bounds (seconds). */
  hardLimitSeconds: number;
}

let installed: ProcessState | null = null;

/**
 * Stops the service in order, then exits with `code`. A second call (a second signal, or an
 * exception during the stop) exits at once with a failure code.
 */
async function exitAfterStop(state: ProcessState, code: number, reason: string): Promise<void> {
  if (state.exiting !== null) {
    state.logger.warn({ reason }, 'already stopping: exiting now');
    process.exit(state.exiting || 1);
  }
  state.exiting = code;
  state.logger.info({ reason }, 'stopping');
  // The stop bounds each of its waits; this only catches a step that ignores its bound.
  setTimeout(() => {
    state.logger.error('the orderly stop overran its bound: exiting');
    process.exit(1);
  }, state.hardLimitSeconds * 1000).unref();
  try {
    await state.service?.stop();
  } catch (error) {
    state.logger.error({ err: error }, 'the orderly stop failed');
    process.exit(1);
  }
  process.exit(code);
}

/**
 * Process-wide handlers, installed once before anything starts (docs/operations.md):
 * - an unhandled rejection is logged with its reason and the process goes on: the promise that
 *   failed was awaited by no one, so nothing else was left half-done by it;
 * - an uncaught exception leaves state unknown: logged as fatal, then the orderly stop and exit 1;
 * - SIGTERM and SIGINT: the orderly stop, then exit 0.
 */
function installProcessHandlers(state: ProcessState): void {
  if (installed) return;
  installed = state;
  process.on('unhandledRejection', (reason) => {
    state.logger.error({ err: reason }, 'unhandled promise rejection (the process continues)');
  });
  process.on('uncaughtException', (error, origin) => {
    state.logger.fatal({ err: error, origin }, 'uncaught exception: stopping');
    void exitAfterStop(state, 1, 'uncaughtException');
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => void exitAfterStop(state, 0, signal));
  }
}

/** Process entry: configuration → database → app and workers → listen. */
export async function main(role?: ServiceRole): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const state: ProcessState = {
    logger: createServiceLogger(config),
    service: null,
    exiting: null,
    hardLimitSeconds: config.shutdownTimeoutSeconds + 15,
  };
  installProcessHandlers(state);
  let service: RunningService;
  try {
    service = await startService(config, role ?? config.role, { logger: state.logger });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  state.service = service;
  const port = service.address ? new URL(service.address).port : null;
  const shown = port ? `http://localhost:${port}` : null;
  const lines = [
    `Driftwatch is running (${service.database.engine} database, role ${role ?? config.role}).`,
  ];
  if (shown) {
    lines.push(
      `  API:       ${shown}/api/v1`,
      `  Docs:      ${shown}/docs`,
      `  OpenAPI:   ${shown}/api/v1/openapi.json`,
    );
  }
  if (service.bootstrap) {
    lines.push(
      '',
      `Created tenant "${service.bootstrap.name}" (${service.bootstrap.plan}). Its owner token is shown once:`,
      `  ${service.bootstrap.ownerToken}`,
      '',
      `Try: curl -H "Authorization: Bearer ${service.bootstrap.ownerToken}" ${shown ?? 'http://localhost:8080'}/api/v1/api-tokens`,
    );
  }
  console.log(lines.join('\n'));
}

const invokedDirectly =
  process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

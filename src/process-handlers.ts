import type { ServiceLogger } from './logger';
import type { RunningService } from './service';

export interface ProcessState {
  logger: ServiceLogger;
  /** The running service once started (only its stop is used here). */
  service: Pick<RunningService, 'stop'> | null;
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
export function installProcessHandlers(state: ProcessState): void {
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

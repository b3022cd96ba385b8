import { ConfigError } from '../src/config';
import { OperationInputError } from '../src/operator/operations';

/** The command line was wrong: exit code 2; `help` names where the usage is. */
export class UsageError extends Error {
  constructor(message: string, help = 'driftwatch --help') {
    super(`${message} (see ${help})`);
  }
}

/**
 * What a failed command prints (docs/operations.md#operator-commands): one line naming the
 * problem, never a stack trace unless `--debug` asked for it, and the exit code: 2 for a wrong
 * command line, input or configuration, 1 for anything that went wrong while doing the work.
 */
export function reportFailure(error: unknown, debug: boolean): number {
  const usage =
    error instanceof UsageError ||
    error instanceof OperationInputError ||
    error instanceof ConfigError;
  const message =
    error instanceof ConfigError
      ? `invalid configuration: ${error.problems.join('; ')}`
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error);
  console.error(`driftwatch: ${message}`);
  if (debug && error instanceof Error && error.stack) console.error(error.stack);
  return usage ? 2 : 1;
}

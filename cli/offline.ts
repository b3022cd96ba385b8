/**
 * The offline commands, bundled into one script by cli/fast-start.cjs so that `driftwatch audit`
 * and `driftwatch deps` start without compiling TypeScript (see docs/vulnerabilities-matching.md).
 */
import { run as audit } from './commands/audit';
import { run as deps } from './commands/deps';

// `--debug` is every command's option (driftwatch --help); these report their own failures.
const withoutDebug = (argv: string[]) => argv.filter((arg) => arg !== '--debug');

export const offlineCommands: Record<string, (argv: string[], buildId: string) => Promise<number>> =
  {
    audit: (argv, buildId) => audit(withoutDebug(argv), { buildId }),
    deps: (argv) => deps(withoutDebug(argv)),
  };

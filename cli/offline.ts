/**
 * The offline commands, bundled into one script by cli/fast-start.cjs so that `driftwatch audit`
 * and `driftwatch deps` start without compiling TypeScript (see docs/vulnerabilities-matching.md).
 */
import { run as audit } from './commands/audit';
import { run as deps } from './commands/deps';

export const offlineCommands: Record<string, (argv: string[], buildId: string) => Promise<number>> =
  {
    audit: (argv, buildId) => audit(argv, { buildId }),
    deps: (argv) => deps(argv),
  };

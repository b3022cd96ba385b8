import type { CommandOptions } from './command';
import { reportFailure } from './errors';

/** Dispatches `driftwatch <command> ...` to cli/commands/<command>.ts (each exports `run`). */
type Command = { run: (argv: string[], options: CommandOptions) => Promise<number> };

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary: 'run the API and/or job workers (--role api|worker|all)',
    load: () => import('./commands/serve'),
  },
  deps: {
    summary: 'extract dependencies from a directory or file (--json)',
    load: () => import('./commands/deps'),
  },
  audit: {
    summary: 'match dependencies against OSV advisories offline (--osv PATH, --fail-on, --json)',
    // Its second parameter is the bundle's build id (cli/offline.ts), not these options.
    load: async () => {
      const { run } = await import('./commands/audit');
      return { run: (argv) => run(argv) };
    },
  },
  gate: {
    summary:
      'fail a CI build on blocking policy violations (--repository ID | DIR --policy FILE; --json, --sarif)',
    load: () => import('./commands/gate'),
  },
  admin: {
    summary:
      'administration: create-tenant --name NAME --plan PLAN | create-token --tenant ID|NAME | import-osv <file|dir|url> | import-kev <file> | status | backup FILE | restore FILE',
    load: () => import('./commands/admin'),
  },
  ask: {
    summary: 'ask a running service a question in plain language ("question"; --json)',
    load: () => import('./commands/ask'),
  },
  status: {
    summary: 'the public status page: show | incident create/update | changelog add | override',
    load: () => import('./commands/status'),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(8)} ${command.summary}`,
  );
  return `Usage: driftwatch <command> [options] [--debug]\n\nCommands:\n${lines.join('\n')}\n\n--debug shows the stack trace of a failure.`;
}

export async function runCli(argv: string[]): Promise<number> {
  const debug = argv.includes('--debug');
  const [name, ...rest] = argv.filter((arg) => arg !== '--debug');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (!name) {
      console.error(usage());
      return 2;
    }
    console.log(usage());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`driftwatch: unknown command "${name}" (see driftwatch --help)`);
    return 2;
  }
  try {
    return await (await command.load()).run(rest, { debug });
  } catch (error) {
    return reportFailure(error, debug);
  }
}

/** Dispatches `driftwatch <command> ...` to cli/commands/<command>.ts (each exports `run`). */
type Command = { run: (argv: string[]) => Promise<number> };

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
    load: () => import('./commands/audit'),
  },
  admin: {
    summary: 'administration: create-tenant --name NAME --plan PLAN | import-osv <file|dir|url>',
    load: () => import('./commands/admin'),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(8)} ${command.summary}`,
  );
  return `Usage: driftwatch <command> [options]\n\nCommands:\n${lines.join('\n')}`;
}

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
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
    console.error(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  return (await command.load()).run(rest);
}

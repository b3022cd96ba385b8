import { parseArgs } from 'node:util';
import { UsageError } from './errors';

export interface ImportArgs {
  positionals: string[];
  json: boolean;
  help: boolean;
}

/** The arguments every `driftwatch admin import-*` command takes: sources, `--json`, `--help`. */
export function parseImportArgs(command: string, argv: string[]): ImportArgs {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return {
      positionals: parsed.positionals,
      json: parsed.values.json === true,
      help: parsed.values.help === true,
    };
  } catch (error) {
    throw new UsageError((error as Error).message, `driftwatch admin ${command} --help`);
  }
}

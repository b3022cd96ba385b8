import { parseArgs } from 'node:util';
import {
  type ExtractedFile,
  extractPath,
  type TreeExtraction,
} from '../../src/ecosystems/extract-tree';
import { table, writeReport } from '../output';

const USAGE = `Usage: driftwatch deps <dir-or-file> [--json] [--max-file-size BYTES]

Lists the dependencies declared or locked in a directory tree (node_modules, vendor, .git and
similar folders are skipped) or in one file. Prints a table per file, or with --json:
{ "files": [ { "path", "ecosystem", "format", "extractor", "dependencies": [...], "errors": [...] } ] }
Exit codes: 0 success (per-file errors are reported, not fatal), 2 usage error or unreadable target.`;

export function renderFile(file: ExtractedFile): string[] {
  const count = file.dependencies.length;
  const lines = [
    `${file.path}  ${file.ecosystem}  ${file.format}  (${count} ${count === 1 ? 'dependency' : 'dependencies'})`,
  ];
  if (count > 0) {
    const rows = [['NAME', 'VERSION', 'SCOPE', 'DIRECT', 'RESOLUTION', 'LINE']];
    for (const d of file.dependencies) {
      rows.push([
        d.name,
        d.version ?? '-',
        d.scope,
        d.direct ? 'yes' : 'no',
        d.resolution,
        d.line === null ? '-' : String(d.line),
      ]);
    }
    lines.push(...table(rows).map((line) => `  ${line}`));
  }
  for (const error of file.errors) {
    lines.push(`  error${error.line === null ? '' : ` (line ${error.line})`}: ${error.message}`);
  }
  return lines;
}

export function renderTable(result: TreeExtraction): string {
  if (result.files.length === 0) return 'No supported dependency files found.';
  const blocks = result.files.map((file) => renderFile(file).join('\n'));
  const deps = result.files.reduce((n, f) => n + f.dependencies.length, 0);
  const errors = result.files.reduce((n, f) => n + f.errors.length, 0);
  const summary = `${result.files.length} files, ${deps} dependencies, ${errors} errors`;
  return `${blocks.join('\n\n')}\n\n${summary}`;
}

/** `driftwatch deps <dir-or-file> [--json]` */
export async function run(argv: string[]): Promise<number> {
  let values: { json?: boolean; help?: boolean; 'max-file-size'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        'max-file-size': { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  let maxFileBytes: number | undefined;
  if (values['max-file-size'] !== undefined) {
    maxFileBytes = Number(values['max-file-size']);
    if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes <= 0) {
      console.error('--max-file-size must be a positive number of bytes');
      return 2;
    }
  }
  const target = positionals[0]!;
  let result: TreeExtraction;
  try {
    result = await extractPath(target, { maxFileBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(`driftwatch deps: cannot read ${target}${code ? ` (${code})` : ''}`);
    return 2;
  }
  writeReport(`${values.json ? JSON.stringify(result, null, 2) : renderTable(result)}\n`);
  return 0;
}

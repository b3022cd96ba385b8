import { parseArgs } from 'node:util';
import { ecosystems } from '../../src/ecosystems/ecosystem-list';
import {
  applyLockfileWins,
  type ExtractedFile,
  extractPath,
  type TreeExtraction,
} from '../../src/ecosystems/extract-tree';
import { dirOf } from '../../src/ecosystems/shared/tree-paths';
import { table, writeReport } from '../output';

const USAGE = `Usage: driftwatch deps <dir-or-file> [--json] [--max-file-size BYTES]

Lists the dependencies declared or locked in a directory tree (node_modules, vendor, .git and
similar folders are skipped) or in one file. A manifest beside a lockfile of its ecosystem keeps
only what the lockfile does not list; its line says how many it declares and where they are
resolved. Prints a table per file, or with --json:
{ "files": [ { "path", "ecosystem", "format", "extractor", "dependencies": [...], "errors": [...] } ] }
Exit codes: 0 success (per-file errors are reported, not fatal), 2 usage error or unreadable target.`;

/** A manifest whose dependencies a lockfile beside it resolves (lockfile wins). */
export interface Resolved {
  /** What the manifest itself declares. */
  declared: number;
  /** The lockfiles of its ecosystem in its directory. */
  lockfiles: string[];
}

export function renderFile(file: ExtractedFile, resolved?: Resolved): string[] {
  const count = file.dependencies.length;
  const moved = resolved ? resolved.declared - count : 0;
  const where =
    resolved && moved > 0
      ? `; declares ${resolved.declared}, ${moved} resolved in ${resolved.lockfiles.join(', ')}`
      : '';
  const lines = [
    `${file.path}  ${file.ecosystem}  ${file.format}  (${count} ${count === 1 ? 'dependency' : 'dependencies'}${where})`,
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

const KINDS = new Map(
  ecosystems.flatMap((e) => e.extractors.map((x) => [x.name, x.kind] as const)),
);

/**
 * Lockfile wins, applied here rather than during extraction so that the table can say what each
 * manifest declared and where those dependencies went: `(0 dependencies)` alone reads as an
 * empty package.json.
 */
export function withLockfileWins(all: TreeExtraction): {
  result: TreeExtraction;
  resolved: Map<string, Resolved>;
} {
  const files = applyLockfileWins(all.files, KINDS, ecosystems);
  const resolved = new Map<string, Resolved>();
  for (const [i, file] of files.entries()) {
    const declared = all.files[i]!.dependencies.length;
    if (declared === file.dependencies.length) continue;
    const lockfiles = all.files
      .filter(
        (other) =>
          KINDS.get(other.extractor) === 'lockfile' &&
          other.ecosystem === file.ecosystem &&
          dirOf(other.path) === dirOf(file.path),
      )
      .map((other) => other.path);
    resolved.set(file.path, { declared, lockfiles });
  }
  return { result: { files }, resolved };
}

export function renderTable(
  result: TreeExtraction,
  resolved: ReadonlyMap<string, Resolved> = new Map(),
): string {
  if (result.files.length === 0) return 'No supported dependency files found.';
  const blocks = result.files.map((file) => renderFile(file, resolved.get(file.path)).join('\n'));
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
  let all: TreeExtraction;
  try {
    all = await extractPath(target, { maxFileBytes, lockfileWins: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(`driftwatch deps: cannot read ${target}${code ? ` (${code})` : ''}`);
    return 2;
  }
  const { result, resolved } = withLockfileWins(all);
  writeReport(`${values.json ? JSON.stringify(result, null, 2) : renderTable(result, resolved)}\n`);
  return 0;
}

import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compositeKey } from '../../src/core/composite-key';
import { type ExtractedFile, type OpenedTree, openTree } from '../../src/ecosystems/extract-tree';
import { loadScoreTable, saveScoreTable } from '../../src/intel/osv/advisory-cache';
import { type AuditError, type FailOn, prepareAdvisories } from '../../src/intel/osv/audit';
import { loadAdvisories } from '../../src/intel/osv/load';
import { ReportStream } from '../output';
import { type Progress, terminalProgress } from '../progress';
import { Spool } from '../spool';
import {
  type AuditOutcome,
  jsonReportWriter,
  streamAudit,
  tableReportWriter,
} from './audit-report';

const FAIL_ON: readonly FailOn[] = ['any', 'low', 'medium', 'high', 'critical'];

const USAGE = `Usage: driftwatch audit <dir-or-file> --osv <file-or-dir> [--osv ...] [--fail-on SEVERITY] [--json]
                       [--cache-dir DIR | --no-cache]

Matches the dependencies of a directory tree (or one file) against OSV advisories read from disk:
.json files (one record, an array, or {"vulns": [...]}), .jsonl files, OSV per-ecosystem exports
(all.zip), or directories of them. No server, no network.

  --osv PATH       advisory file or directory (repeatable; required)
  --fail-on SEV    any | low | medium | high | critical (default: any)
  --json           print { "findings": [...], "errors": [...] }
  --cache-dir DIR  keep the advisory index here between runs (default: $DRIFTWATCH_CACHE_DIR,
                   else $XDG_CACHE_HOME/driftwatch or ~/.cache/driftwatch)
  --no-cache       read and index every advisory file on this run, write no index

Exit codes: 0 no affected finding at or above --fail-on; 1 at least one; 2 usage error, unreadable
target or advisory path, or no advisory loaded; 3 a malicious package (an OSV MAL- record) is in
the tree, whatever --fail-on says. "possibly affected" vulnerability findings (declared ranges,
unpinned dependencies) are reported but never fail the run.`;

/**
 * Dependencies a tree may have for its files to be kept in memory from the first pass to the
 * matching one (about 26 MiB of extracted Composer entries, measured); a larger tree's files
 * wait in a temporary file, where reading them back costs about a tenth of extracting again.
 */
const HELD_DEPENDENCIES = 50_000;

/** The extracted files, read once: in memory or spooled, handed out in order, then let go. */
interface ReadTree {
  packages: Set<string>;
  /** How many files the tree has. */
  count: number;
  files: AsyncIterable<ExtractedFile>;
  dispose(): void;
}

/** One file as spooled: all the audit reads (dependency edges are not). */
const spooledLine = (file: ExtractedFile): string =>
  `${JSON.stringify({ ...file, dependencies: file.dependencies.map((d) => ({ ...d, parents: [] })) })}\n`;

async function* releasing(files: Array<ExtractedFile | undefined>): AsyncGenerator<ExtractedFile> {
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    files[i] = undefined;
    yield file;
  }
}

async function* unspooled(spool: Spool): AsyncGenerator<ExtractedFile> {
  for (const line of spool.lines()) yield JSON.parse(line) as ExtractedFile;
}

/**
 * The first pass: extracts every file once, for the package keys the advisories are loaded for,
 * and keeps the files for the matching pass (in memory while few, else in a spool).
 */
async function readTree(tree: OpenedTree, progress: Progress): Promise<ReadTree> {
  const packages = new Set<string>();
  let held: ExtractedFile[] | null = [];
  let heldDependencies = 0;
  let spool: Spool | null = null;
  let files = 0;
  let dependencies = 0;
  try {
    for await (const file of tree.files()) {
      dependencies += file.dependencies.length;
      progress.show(`reading the tree: ${++files} files, ${dependencies} dependencies`);
      for (const dep of file.dependencies) packages.add(compositeKey(file.ecosystem, dep.name));
      if (spool) {
        spool.write(spooledLine(file));
        continue;
      }
      held!.push(file);
      heldDependencies += file.dependencies.length;
      if (heldDependencies > HELD_DEPENDENCIES) {
        spool = new Spool();
        for (const kept of held!) spool.write(spooledLine(kept));
        held = null;
      }
    }
  } catch (error) {
    spool?.dispose();
    throw error;
  }
  const spooled = spool;
  return {
    packages,
    files: spooled ? unspooled(spooled) : releasing(held!),
    count: files,
    dispose: () => spooled?.dispose(),
  };
}

/** The matching pass's files, counted on the progress line. */
async function* counted(
  files: AsyncIterable<ExtractedFile>,
  total: number,
  progress: Progress,
): AsyncGenerator<ExtractedFile> {
  let done = 0;
  for await (const file of files) {
    progress.show(`matching: ${++done} of ${total} files`);
    yield file;
  }
}

export interface AuditContext {
  /** Identity of the running build (the bundled CLI's hash): names the advisory index's writer. */
  buildId?: string;
  env?: NodeJS.ProcessEnv;
  /** The progress line (default: on standard error when it is a terminal). */
  progress?: Progress;
  /** Whether standard output is a terminal (default: asks it). */
  stdoutIsTerminal?: boolean;
}

/**
 * Where the advisory index lives. The bundled CLI keeps one by default; running from source it
 * is kept only when a directory is named, since source edits do not change a build id.
 */
function cacheSettings(
  values: { 'cache-dir'?: string; 'no-cache'?: boolean },
  context: AuditContext,
): { dir: string; codeVersion: string } | undefined {
  if (values['no-cache']) return undefined;
  const env = context.env ?? process.env;
  const named = values['cache-dir'] ?? env.DRIFTWATCH_CACHE_DIR;
  const codeVersion = context.buildId ?? 'source';
  if (named) return { dir: named, codeVersion };
  if (!context.buildId) return undefined;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return { dir: join(base, 'driftwatch'), codeVersion };
}

/** What the exit code depends on. */
type ReadOutcome = AuditOutcome & { loadFailed: boolean; advisories: number };

type AuditOptions = { osv?: string[]; json?: boolean; 'cache-dir'?: string; 'no-cache'?: boolean };

/** Loads the advisories the tree's packages need, then matches and writes the report. */
async function auditRead(
  read: ReadTree,
  values: AuditOptions,
  context: AuditContext,
  failOn: FailOn,
  progress: Progress,
): Promise<ReadOutcome> {
  const cache = cacheSettings(values, context);
  const knownScores = cache ? loadScoreTable(cache.dir, cache.codeVersion) : 0;
  progress.show(`loading the advisories of ${read.packages.size} packages`);
  const loaded = await loadAdvisories(values.osv ?? [], { packages: read.packages, cache });
  // The report goes to standard output as it is matched: on the same terminal, a progress line
  // would cut into it, so matching is counted only when the report goes elsewhere.
  const onTerminal = context.stdoutIsTerminal ?? process.stdout.isTTY === true;
  if (onTerminal) progress.stop();
  const files = onTerminal ? read.files : counted(read.files, read.count, progress);
  const prepared = prepareAdvisories(loaded.advisories);
  if (cache && loaded.errors.length === 0) {
    saveScoreTable(cache.dir, cache.codeVersion, knownScores);
  }
  const loadErrors: AuditError[] = [
    ...loaded.errors.map((e) => ({ source: e.source, line: null, message: e.message })),
    ...loaded.rejected.map((r) => ({
      source: r.source,
      line: null,
      message: `advisory${r.id ? ` ${r.id}` : ''} rejected: ${r.reasons.join('; ')}`,
    })),
  ];
  const out = new ReportStream();
  const writer = values.json
    ? jsonReportWriter(out)
    : tableReportWriter(
        out,
        prepared.vulnerabilities.some((v) => v.kind === 'malicious'),
      );
  const outcome = await streamAudit(files, prepared, writer, {
    errors: loadErrors,
    advisories: loaded.records,
    failOn,
  });
  return { ...outcome, loadFailed: loaded.errors.length > 0, advisories: loaded.records };
}

/** `driftwatch audit <dir-or-file> --osv PATH... [--fail-on SEV] [--json] [--cache-dir DIR]` */
export async function run(argv: string[], context: AuditContext = {}): Promise<number> {
  let values: {
    json?: boolean;
    help?: boolean;
    osv?: string[];
    'fail-on'?: string;
    'cache-dir'?: string;
    'no-cache'?: boolean;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        osv: { type: 'string', multiple: true },
        'fail-on': { type: 'string' },
        'cache-dir': { type: 'string' },
        'no-cache': { type: 'boolean' },
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
  if (!values.osv || values.osv.length === 0) {
    console.error(
      'driftwatch audit: no advisories given. Pass --osv with an OSV file or directory ' +
        '(.json, .jsonl, all.zip); the audit never downloads advisories.',
    );
    return 2;
  }
  const failOn = (values['fail-on'] ?? 'any').toLowerCase() as FailOn;
  if (!FAIL_ON.includes(failOn)) {
    console.error(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
    return 2;
  }
  const target = positionals[0]!;
  let tree: OpenedTree;
  try {
    tree = await openTree(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(`driftwatch audit: cannot read ${target}${code ? ` (${code})` : ''}`);
    return 2;
  }
  // Only the flaws that name a package of this tree are parsed in full (load.ts keeps alias
  // groups whole), so the cost follows the dependencies rather than the advisory database. The
  // names come from a first pass over the tree, which keeps its files for the matching pass.
  const progress = context.progress ?? terminalProgress();
  let outcome: ReadOutcome;
  try {
    const read = await readTree(tree, progress);
    try {
      outcome = await auditRead(read, values, context, failOn, progress);
    } finally {
      read.dispose();
    }
  } finally {
    progress.stop();
  }
  if (outcome.loadFailed) return 2;
  if (outcome.advisories === 0) {
    console.error('driftwatch audit: no advisory could be loaded from the --osv paths');
    return 2;
  }
  if (outcome.malicious) return 3;
  return outcome.failing ? 1 : 0;
}

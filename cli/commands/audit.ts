import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { extractPath, type TreeExtraction } from '../../src/ecosystems/extract-tree';
import { loadScoreTable, saveScoreTable } from '../../src/intel/osv/advisory-cache';
import {
  type AuditError,
  type AuditFinding,
  type AuditReport,
  auditExtraction,
  type FailOn,
  failsThreshold,
  hasMaliciousPackage,
  prepareAdvisories,
} from '../../src/intel/osv/audit';
import { loadAdvisories } from '../../src/intel/osv/load';
import { writeReport } from '../output';

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

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** Malicious packages first, on their own: they are never one line among flaws. */
function maliciousSection(report: AuditReport): string[] {
  const malicious = report.findings.filter((f) => f.kind === 'malicious');
  if (malicious.length === 0) return [];
  const rows = [['MALICIOUS PACKAGE', 'VERSION', 'ADVISORY', 'STATUS', 'FILE']];
  for (const f of malicious) {
    rows.push([
      f.name,
      f.version ?? '(unpinned)',
      f.vulnerabilityId,
      f.status === 'affected' ? 'installed' : 'possibly installed',
      `${f.file}${f.line === null ? '' : `:${f.line}`}`,
    ]);
  }
  return [...table(rows), ''];
}

export function renderAuditTable(report: AuditReport): string {
  const lines: string[] = maliciousSection(report);
  const byFile = new Map<string, AuditFinding[]>();
  for (const f of report.findings) {
    if (f.kind === 'malicious') continue;
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  for (const [file, findings] of byFile) {
    lines.push(file);
    const rows = [
      ['PACKAGE', 'VERSION', 'VULNERABILITY', 'SEVERITY', 'STATUS', 'FIXED IN', 'SUMMARY'],
    ];
    for (const f of findings) {
      rows.push([
        f.name,
        f.version ?? '(unpinned)',
        f.vulnerabilityId,
        f.severity === null
          ? '-'
          : `${f.severity}${f.score === null ? '' : ` ${f.score.toFixed(1)}`}`,
        f.status === 'affected'
          ? 'affected'
          : `possibly affected${f.reason ? ` (${f.reason})` : ''}`,
        f.fixedVersions.slice(0, 3).join(', ') || '-',
        (f.summary ?? '').replace(/\s+/g, ' ').slice(0, 80),
      ]);
    }
    lines.push(...table(rows).map((l) => `  ${l}`), '');
  }
  for (const e of report.errors) {
    lines.push(`error: ${e.source}${e.line === null ? '' : `:${e.line}`}: ${e.message}`);
  }
  const flaws = report.findings.filter((f) => f.kind === 'vulnerability');
  const affected = flaws.filter((f) => f.status === 'affected').length;
  const possible = flaws.length - affected;
  const malicious = report.findings.length - flaws.length;
  const s = report.stats;
  lines.push(
    `${malicious ? `${malicious} MALICIOUS, ` : ''}${affected} affected, ${possible} possibly affected; ${s.dependencies} dependencies in ${s.files} files; ` +
      `${s.advisories} advisories read (${s.vulnerabilities} vulnerabilities name these packages); ${report.errors.length} errors`,
  );
  return lines.join('\n');
}

export interface AuditContext {
  /** Identity of the running build (the bundled CLI's hash): names the advisory index's writer. */
  buildId?: string;
  env?: NodeJS.ProcessEnv;
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
  let tree: TreeExtraction;
  try {
    tree = await extractPath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(`driftwatch audit: cannot read ${target}${code ? ` (${code})` : ''}`);
    return 2;
  }
  // Only the flaws that name a package of this tree are parsed in full (load.ts keeps alias
  // groups whole), so the cost follows the dependencies rather than the advisory database.
  const packages = new Set<string>();
  for (const file of tree.files) {
    for (const dep of file.dependencies) packages.add(`${file.ecosystem}\u0000${dep.name}`);
  }
  const cache = cacheSettings(values, context);
  const knownScores = cache ? loadScoreTable(cache.dir, cache.codeVersion) : 0;
  const loaded = await loadAdvisories(values.osv, { packages, cache });
  const report = auditExtraction(tree, prepareAdvisories(loaded.advisories));
  if (cache && loaded.errors.length === 0) {
    saveScoreTable(cache.dir, cache.codeVersion, knownScores);
  }
  report.stats.advisories = loaded.records;
  const loadErrors: AuditError[] = [
    ...loaded.errors.map((e) => ({ source: e.source, line: null, message: e.message })),
    ...loaded.rejected.map((r) => ({
      source: r.source,
      line: null,
      message: `advisory${r.id ? ` ${r.id}` : ''} rejected: ${r.reasons.join('; ')}`,
    })),
  ];
  report.errors.unshift(...loadErrors);
  writeReport(`${values.json ? JSON.stringify(report, null, 2) : renderAuditTable(report)}\n`);
  if (loaded.errors.length > 0) return 2;
  if (loaded.records === 0) {
    console.error('driftwatch audit: no advisory could be loaded from the --osv paths');
    return 2;
  }
  if (hasMaliciousPackage(report.findings)) return 3;
  return failsThreshold(report.findings, failOn) ? 1 : 0;
}

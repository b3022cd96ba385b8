import { findEcosystem } from '../../src/ecosystems/ecosystem-list';
import type { ExtractedFile } from '../../src/ecosystems/extract-tree';
import {
  type AuditAdvisories,
  type AuditError,
  type AuditFinding,
  type AuditReport,
  type FailOn,
  failsAt,
  fileAuditor,
} from '../../src/intel/osv/audit';
import { table } from '../output';
import { Spool } from '../spool';

/**
 * `driftwatch audit`'s report, written while the tree is read: each file's findings go out as
 * soon as the file is matched, so memory holds one file and the totals, whatever the tree's size
 * (docs/vulnerabilities-matching.md). The text is the same, byte for byte, as rendering the whole
 * report at the end.
 */

/** Where the report goes: standard output (ReportStream in cli/output.ts) or a test's buffer. */
export interface TextSink {
  write(text: string): Promise<void>;
  flush(): Promise<void>;
}

export interface AuditReportWriter {
  /** One file's findings, in order (possibly none). */
  file(findings: readonly AuditFinding[]): Promise<void>;
  /** The end of the report: every error, the totals. */
  end(errors: readonly AuditError[], stats: AuditReport['stats']): Promise<void>;
  /** Releases what the writer holds when the audit stops before `end`. */
  abort(): void;
}

/** `JSON.stringify(value, null, 2)` as it appears nested `depth` spaces deep in the document. */
function nestedJson(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${' '.repeat(depth)}`);
}

/** `--json`: the text of `JSON.stringify({ findings, errors, stats }, null, 2)`, findings streamed. */
export function jsonReportWriter(out: TextSink): AuditReportWriter {
  let written = 0;
  return {
    async file(findings) {
      for (const finding of findings) {
        const before = written === 0 ? '{\n  "findings": [' : ',';
        await out.write(`${before}\n    ${nestedJson(finding, 4)}`);
        written++;
      }
    },
    async end(errors, stats) {
      const findingsEnd = written === 0 ? '{\n  "findings": []' : '\n  ]';
      await out.write(
        `${findingsEnd},\n  "errors": ${nestedJson(errors, 2)},\n  "stats": ${nestedJson(stats, 2)}\n}\n`,
      );
      await out.flush();
    },
    abort() {},
  };
}

const lines = (list: readonly string[]): string => list.map((line) => `${line}\n`).join('');

/** Malicious packages first, on their own: they are never one line among flaws. */
function maliciousSection(malicious: readonly AuditFinding[]): string {
  if (malicious.length === 0) return '';
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
  return lines([...table(rows), '']);
}

/**
 * The FIXED IN column: the fix that applies to the installed version (the lowest fix above it)
 * first, then later ones; fixes of lower lines say nothing about this installation (10.48.22
 * needs 10.48.23, not 8.83.28). Without an exact installed version, the lowest fixes.
 */
export function fixesToShow(
  finding: Pick<AuditFinding, 'ecosystem' | 'version' | 'resolution' | 'fixedVersions'>,
): string[] {
  const { fixedVersions, version } = finding;
  if (finding.resolution !== 'resolved' || version === null) return fixedVersions.slice(0, 3);
  const versioning = findEcosystem(finding.ecosystem)?.versioning;
  if (!versioning?.isValid(version)) return fixedVersions.slice(0, 3);
  return fixedVersions
    .filter((fixed) => versioning.isValid(fixed) && versioning.compare(fixed, version) > 0)
    .sort(versioning.compare)
    .slice(0, 3);
}

/** One file's table of (non-malicious) findings, columns sized to that file. */
function fileSection(file: string, findings: readonly AuditFinding[]): string {
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
      f.status === 'affected' ? 'affected' : `possibly affected${f.reason ? ` (${f.reason})` : ''}`,
      fixesToShow(f).join(', ') || '-',
      (f.summary ?? '').replace(/\s+/g, ' ').slice(0, 80),
    ]);
  }
  return lines([file, ...table(rows).map((l) => `  ${l}`), '']);
}

/**
 * The human table. `maliciousPossible`: some loaded advisory is a malicious-package record, so
 * a MALICIOUS section may have to come first and the file sections are spooled; otherwise (the
 * usual case) they are written as they come.
 */
export function tableReportWriter(out: TextSink, maliciousPossible: boolean): AuditReportWriter {
  const malicious: AuditFinding[] = [];
  const spool = maliciousPossible ? new Spool() : null;
  let affected = 0;
  let possible = 0;
  return {
    async file(findings) {
      const flaws: AuditFinding[] = [];
      for (const f of findings) {
        if (f.kind === 'malicious') malicious.push(f);
        else {
          flaws.push(f);
          if (f.status === 'affected') affected++;
          else possible++;
        }
      }
      if (flaws.length === 0) return;
      const section = fileSection(flaws[0]!.file, flaws);
      if (spool) spool.write(section);
      else await out.write(section);
    },
    async end(errors, s) {
      await out.write(maliciousSection(malicious));
      if (spool) {
        // The table puts malicious packages first: the file sections waited on disk.
        try {
          for (const text of spool.texts(64 * 1024)) await out.write(text);
        } finally {
          spool.dispose();
        }
      }
      const errorLines = errors.map(
        (e) => `error: ${e.source}${e.line === null ? '' : `:${e.line}`}: ${e.message}`,
      );
      const count = malicious.length;
      const summary =
        `${count ? `${count} MALICIOUS, ` : ''}${affected} affected, ${possible} possibly affected; ${s.dependencies} dependencies in ${s.files} files; ` +
        `${s.advisories} advisories read (${s.vulnerabilities} vulnerabilities name these packages); ${errors.length} errors`;
      await out.write(lines([...errorLines, summary]));
      await out.flush();
    },
    abort() {
      spool?.dispose();
    },
  };
}

/** What the exit code depends on, gathered while the findings stream out. */
export interface AuditOutcome {
  malicious: boolean;
  failing: boolean;
}

/**
 * Matches the files one at a time as they come and hands each file's findings to the writer
 * before asking for the next file; keeps only the errors and the totals. `errors` are the
 * report's first errors (advisory loading); `advisories` the records read.
 */
export async function streamAudit(
  files: AsyncIterable<ExtractedFile>,
  prepared: AuditAdvisories,
  writer: AuditReportWriter,
  report: { errors: AuditError[]; advisories: number; failOn: FailOn },
): Promise<AuditOutcome> {
  const audit = fileAuditor(prepared);
  const errors = report.errors;
  const outcome: AuditOutcome = { malicious: false, failing: false };
  let fileCount = 0;
  let dependencies = 0;
  try {
    for await (const file of files) {
      const result = audit(file);
      fileCount++;
      dependencies += result.dependencies;
      errors.push(...result.errors);
      for (const finding of result.findings) {
        if (finding.kind === 'malicious') outcome.malicious = true;
        else if (!outcome.failing && failsAt(finding, report.failOn)) outcome.failing = true;
      }
      await writer.file(result.findings);
    }
  } catch (error) {
    writer.abort();
    throw error;
  }
  await writer.end(errors, {
    files: fileCount,
    dependencies,
    advisories: report.advisories,
    vulnerabilities: prepared.vulnerabilities.length,
    skippedRanges: prepared.skippedRanges.length,
  });
  return outcome;
}

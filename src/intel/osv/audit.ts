import { compositeKey } from '../../core/composite-key';
import { isDependency, isMatchable } from '../../ecosystems/dependency-list';
import type { TreeExtraction } from '../../ecosystems/extract-tree';
import { groupAdvisories, latestById, vulnerabilityByAdvisoryId } from './aliases';
import { AdvisoryIndex, namesEveryVersion, type SkippedRange } from './match';
import { ratingRank } from './severity';
import type {
  Advisory,
  AdvisoryMatch,
  AffectedRange,
  FindingKind,
  MatchStatus,
  SeverityRating,
  Vulnerability,
} from './types';

/**
 * The offline audit: extracted dependency files × advisories → findings, one per
 * (file, package, version, vulnerability). Pure (no I/O); the CLI and the benchmark call it.
 */

export interface AuditFinding {
  /** `malicious`: the package was published to do harm (an OSV MAL- record); always critical. */
  kind: FindingKind;
  ecosystem: string;
  name: string;
  /** Exact version, or the declared range / null for possibly-affected findings. */
  version: string | null;
  resolution: 'resolved' | 'declared' | 'unpinned';
  status: MatchStatus;
  /** Canonical id of the vulnerability (aliases.ts). */
  vulnerabilityId: string;
  /** Every other id of the vulnerability. */
  aliases: string[];
  /** The advisory records that matched this package version (before alias joining). */
  advisoryIds: string[];
  severity: SeverityRating | null;
  score: number | null;
  vector: string | null;
  summary: string | null;
  fixedVersions: string[];
  /** The advisory ranges, for possibly-affected findings (what the version must avoid). */
  ranges: AffectedRange[];
  file: string;
  line: number | null;
  direct: boolean;
  scope: string;
  /**
   * Why a finding whose version matched is only possibly affected: `replaced by <module>` for a
   * Go module swapped out by `replace` (the code built is the replacement's). Absent otherwise.
   */
  reason?: string;
}

export interface AuditError {
  /** The dependency file or advisory source the error belongs to. */
  source: string;
  line: number | null;
  message: string;
}

export interface AuditReport {
  findings: AuditFinding[];
  errors: AuditError[];
  stats: {
    files: number;
    dependencies: number;
    /** Advisory records considered (the CLI: records read from --osv). */
    advisories: number;
    /** Vulnerabilities (alias groups) considered. */
    vulnerabilities: number;
    skippedRanges: number;
  };
}

export interface AuditAdvisories {
  index: AdvisoryIndex;
  byAdvisoryId: Map<string, Vulnerability>;
  vulnerabilities: Vulnerability[];
  skippedRanges: SkippedRange[];
}

/** Dedupes by id (newest `modified`), groups aliases and indexes: once per run. */
export function prepareAdvisories(advisories: readonly Advisory[]): AuditAdvisories {
  const unique = latestById(advisories);
  const vulnerabilities = groupAdvisories(unique);
  const index = new AdvisoryIndex(unique);
  return {
    index,
    byAdvisoryId: vulnerabilityByAdvisoryId(vulnerabilities),
    vulnerabilities,
    skippedRanges: index.skippedRanges,
  };
}

/** The ranges a possibly-affected finding shows: version ranges (GIT ranges are commits). */
function evaluable(match: AdvisoryMatch): AffectedRange[] {
  return match.affected.ranges.filter((r) => r.type !== 'GIT');
}

type ExtractedFile = TreeExtraction['files'][number];
type ExtractedDependency = ExtractedFile['dependencies'][number];

/**
 * The status one advisory match gives this dependency. A replaced Go module's version is the one
 * it would have had: never proof. A malicious record naming every version matches whatever is
 * installed, so even a declared range or an unpinned dependency is affected.
 */
function statusOf(
  found: AdvisoryMatch,
  vulnerability: Vulnerability,
  dep: ExtractedDependency,
): MatchStatus {
  if (dep.source.kind === 'replaced') return 'possibly_affected';
  if (vulnerability.kind === 'malicious' && namesEveryVersion(found.affected)) return 'affected';
  return found.status;
}

function newFinding(
  file: ExtractedFile,
  dep: ExtractedDependency,
  match: AdvisoryMatch,
  vulnerability: Vulnerability,
): AuditFinding {
  const severity = vulnerability.severity;
  return {
    kind: vulnerability.kind,
    ecosystem: file.ecosystem,
    name: dep.name,
    version: dep.version,
    resolution: dep.resolution,
    status: match.status,
    vulnerabilityId: vulnerability.id,
    aliases: vulnerability.aliases,
    advisoryIds: [match.advisory.id],
    severity: severity.rating,
    score: severity.score,
    vector: severity.vector,
    summary:
      vulnerability.advisories.find((a) => a.summary && !a.withdrawn)?.summary ??
      match.advisory.summary,
    fixedVersions: [...match.fixedVersions],
    ranges: match.status === 'possibly_affected' ? evaluable(match) : [],
    file: file.path,
    line: dep.line,
    direct: dep.direct,
    scope: dep.scope,
    ...(dep.source.kind === 'replaced' ? { reason: `replaced by ${dep.source.by}` } : {}),
  };
}

/** A second record of the same flaw for the same dependency joins the first finding. */
function joinFinding(existing: AuditFinding, match: AdvisoryMatch, direct: boolean): void {
  if (!existing.advisoryIds.includes(match.advisory.id)) {
    existing.advisoryIds.push(match.advisory.id);
    existing.advisoryIds.sort();
  }
  for (const fixed of match.fixedVersions) {
    if (!existing.fixedVersions.includes(fixed)) existing.fixedVersions.push(fixed);
  }
  if (existing.status === 'possibly_affected') existing.ranges.push(...match.affected.ranges);
  if (direct) existing.direct = true;
}

/** Errors for advisory ranges that could not be evaluated, by package key. */
function skippedRangesByPackage(prepared: AuditAdvisories): Map<string, string[]> {
  const byPackage = new Map<string, string[]>();
  for (const skipped of prepared.skippedRanges) {
    const k = compositeKey(skipped.ecosystem, skipped.name);
    const list = byPackage.get(k) ?? [];
    list.push(`${skipped.advisoryId}: ${skipped.reason}`);
    byPackage.set(k, list);
  }
  return byPackage;
}

/** What auditing one file gives: its findings in order, its errors, its dependency count. */
export interface FileAudit {
  findings: AuditFinding[];
  errors: AuditError[];
  dependencies: number;
}

/**
 * Audits extracted files one at a time (what `auditExtraction` does for a whole tree): a
 * streamed tree holds only the file at hand and its findings.
 */
export function fileAuditor(prepared: AuditAdvisories): (file: ExtractedFile) => FileAudit {
  const skipsByPackage = skippedRangesByPackage(prepared);
  return (file) => {
    const findings: AuditFinding[] = [];
    const errors: AuditError[] = file.errors.map((error) => ({
      source: file.path,
      line: error.line,
      message: error.message,
    }));
    let dependencies = 0;
    // An advisory range that could not be evaluated matters only where the package is used:
    // reported once per file and package.
    const skipsReported = new Set<string>();
    const seen = new Map<string, AuditFinding>();
    for (const dep of file.dependencies) {
      if (isDependency(dep)) dependencies++;
      if (!isMatchable(dep)) continue;
      const packageKey = compositeKey(file.ecosystem, dep.name);
      const skips = skipsByPackage.get(packageKey);
      if (skips && !skipsReported.has(packageKey)) {
        skipsReported.add(packageKey);
        for (const message of skips) {
          errors.push({
            source: file.path,
            line: dep.line,
            message: `${dep.name}: advisory ${message}`,
          });
        }
      }
      const matches = prepared.index.match({
        ecosystem: file.ecosystem,
        name: dep.name,
        version: dep.version,
        resolution: dep.resolution,
      });
      for (const found of matches) {
        const vulnerability = prepared.byAdvisoryId.get(found.advisory.id);
        if (!vulnerability) continue;
        const match = { ...found, status: statusOf(found, vulnerability, dep) };
        const key = compositeKey(dep.name, dep.version ?? '', vulnerability.id);
        const existing = seen.get(key);
        if (existing) {
          joinFinding(existing, match, dep.direct);
          continue;
        }
        const finding = newFinding(file, dep, match, vulnerability);
        seen.set(key, finding);
        findings.push(finding);
      }
    }
    return { findings, errors, dependencies };
  };
}

export function auditExtraction(tree: TreeExtraction, prepared: AuditAdvisories): AuditReport {
  const findings: AuditFinding[] = [];
  const errors: AuditError[] = [];
  let dependencies = 0;
  const audit = fileAuditor(prepared);
  for (const file of tree.files) {
    const result = audit(file);
    findings.push(...result.findings);
    errors.push(...result.errors);
    dependencies += result.dependencies;
  }
  return {
    findings,
    errors,
    stats: {
      files: tree.files.length,
      dependencies,
      advisories: prepared.index.size,
      vulnerabilities: prepared.vulnerabilities.length,
      skippedRanges: prepared.skippedRanges.length,
    },
  };
}

export type FailOn = SeverityRating | 'any';

/**
 * True when some `affected` finding is at or above the threshold. `any` counts every affected
 * finding, unrated ones included; possibly-affected findings never fail the run (the installed
 * version is unknown), they are reported.
 */
export function failsThreshold(findings: readonly AuditFinding[], failOn: FailOn): boolean {
  return findings.some((f) => failsAt(f, failOn));
}

/** True when this one finding fails the run at `failOn` (see `failsThreshold`). */
export function failsAt(finding: AuditFinding, failOn: FailOn): boolean {
  return (
    finding.kind === 'vulnerability' &&
    finding.status === 'affected' &&
    (failOn === 'any' || ratingRank(finding.severity) >= ratingRank(failOn))
  );
}

/**
 * True when the tree holds a malicious package (any finding of kind `malicious`, possibly
 * affected ones included): never reported quietly, whatever `--fail-on` says.
 */
export function hasMaliciousPackage(findings: readonly AuditFinding[]): boolean {
  return findings.some((f) => f.kind === 'malicious');
}

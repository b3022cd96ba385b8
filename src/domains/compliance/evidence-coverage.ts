import {
  DAY_MS,
  days,
  type EvidenceContext,
  type ItemDraft,
  inPeriod,
  iso,
  type RecordRef,
  repositoryName,
  share,
} from './evidence-model';
import type { RepositoryRecord, SbomRecord, ScanRecord } from './store';

const WEEK_MS = 7 * DAY_MS;

const scanRef = (s: ScanRecord): RecordRef => ({
  type: 'scan',
  id: s.id,
  path: `/api/v1/scans/${s.id}`,
  note: `${s.state} ${s.trigger} scan of repository ${s.repositoryId}, queued ${iso(s.queuedAt)}${s.finishedAt ? `, finished ${iso(s.finishedAt)}` : ''}`,
});

const repositoryRef = (r: RepositoryRecord, note: string): RecordRef => ({
  type: 'repository',
  id: r.id,
  path: `/api/v1/repositories/${r.id}`,
  note,
});

/**
 * Whether a repository was scanned at least weekly (docs/compliance.md#scan-coverage): at
 * least one completed scan in the period, and no stretch longer than 7 days without one, from
 * the later of the period's start and the repository's creation to the end judged.
 */
function weeklyGap(repository: RepositoryRecord, finished: Date[], context: EvidenceContext) {
  const from = new Date(Math.max(context.period.start.getTime(), repository.createdAt.getTime()));
  const times = finished.filter((t) => t >= from && t < context.until).sort((a, b) => +a - +b);
  if (times.length === 0) return { scanned: false, longest: null };
  const points = [from, ...times, context.until];
  let longest = { ms: 0, from, to: from };
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1] as Date, points[i] as Date];
    if (b.getTime() - a.getTime() > longest.ms)
      longest = { ms: b.getTime() - a.getTime(), from: a, to: b };
  }
  return { scanned: true, longest };
}

/** Scans run, and the share of active repositories scanned at least weekly. */
export function scanCoverage(
  context: EvidenceContext,
  repositories: RepositoryRecord[],
  scans: ScanRecord[],
): ItemDraft {
  const run = scans.filter((s) => inPeriod(s.queuedAt, context.period));
  const byState: Record<string, number> = {};
  for (const s of run) byState[s.state] = (byState[s.state] ?? 0) + 1;
  const gaps: string[] = [];
  const records: RecordRef[] = run.map(scanRef);
  let weekly = 0;
  for (const repository of repositories) {
    const finished = scans
      .filter((s) => s.repositoryId === repository.id && s.state === 'completed' && s.finishedAt)
      .map((s) => s.finishedAt as Date);
    const { scanned, longest } = weeklyGap(repository, finished, context);
    if (!scanned) {
      gaps.push(`no scan of repository ${repository.fullName} in the period`);
      records.push(
        repositoryRef(repository, 'active repository with no completed scan in the period'),
      );
    } else if (longest && longest.ms > WEEK_MS) {
      gaps.push(
        `repository ${repository.fullName} went ${days(longest.ms)} days without a completed scan (${iso(longest.from)} to ${iso(longest.to)})`,
      );
      records.push(
        repositoryRef(
          repository,
          `longest stretch without a completed scan: ${days(longest.ms)} days`,
        ),
      );
    } else weekly += 1;
  }
  const active = repositories.length;
  return {
    kind: 'scan_coverage',
    title: 'Scans run and repositories scanned at least weekly',
    source: 'scans, repositories',
    status: active === 0 ? 'no_evidence' : weekly === active ? 'passing' : 'failing',
    summary:
      active === 0
        ? `${run.length} scans run; no active repository in the period`
        : `${run.length} scans run; ${weekly} of ${active} active repositories scanned at least weekly`,
    figures: {
      scansRun: run.length,
      scansByState: byState,
      activeRepositories: active,
      repositoriesScannedWeekly: weekly,
      shareScannedWeekly: share(weekly, active),
    },
    gaps: active === 0 ? ['no active repository in the period'] : gaps,
    records,
  };
}

const sbomRef = (s: SbomRecord, repository: string): RecordRef =>
  s.kind === 'export'
    ? {
        type: 'sbom_export',
        id: s.id,
        path: `/api/v1/sbom-exports/${s.id}`,
        note: `${s.format} export of repository ${repository}: ${s.state}${s.sha256 ? `, sha256 ${s.sha256}` : ''}`,
      }
    : {
        type: 'sbom_import',
        id: s.id,
        path: s.scanId ? `/api/v1/scans/${s.scanId}` : `/api/v1/repositories/${s.repositoryId}`,
        note: `${s.format} import into repository ${repository}: ${s.state}, sha256 ${s.sha256 ?? '—'}`,
      };

/** SBOMs produced (exported or imported) in the period, and the active repositories without one. */
export function sbomEvidence(
  context: EvidenceContext,
  repositories: RepositoryRecord[],
  sboms: SbomRecord[],
): ItemDraft {
  const produced = sboms.filter((s) => s.state === 'completed');
  const covered = new Set(produced.map((s) => s.repositoryId));
  const gaps = repositories
    .filter((r) => !covered.has(r.id))
    .map((r) => `no SBOM produced for repository ${r.fullName} in the period`);
  const withSbom = repositories.length - gaps.length;
  const count = (kind: 'export' | 'import') => produced.filter((s) => s.kind === kind).length;
  const active = repositories.length;
  return {
    kind: 'sbom',
    title: 'Software bills of materials produced',
    source: 'sbom_exports, sbom_imports',
    status: active === 0 ? 'no_evidence' : gaps.length === 0 ? 'passing' : 'failing',
    summary: `${produced.length} SBOMs produced (${count('export')} exported, ${count('import')} imported); ${withSbom} of ${active} active repositories have one from the period`,
    figures: {
      sbomsProduced: produced.length,
      exported: count('export'),
      imported: count('import'),
      notCompleted: sboms.length - produced.length,
      activeRepositories: active,
      repositoriesWithSbom: withSbom,
      shareWithSbom: share(withSbom, active),
    },
    gaps: active === 0 ? ['no active repository in the period'] : gaps,
    records: sboms.map((s) => sbomRef(s, repositoryName(context, s.repositoryId))),
  };
}

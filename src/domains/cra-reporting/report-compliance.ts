import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { type AssessedItem, annexIStatus, listDuties } from '../cra/assessments';
import { listFindings } from '../cra/findings';

/** One row of the findings, Annex I and duties sections, the same shape in every format. */
export interface ReportItem {
  /** A stable reference: the CVE, the Annex I requirement ('I(2)(a)'), the duty key. */
  ref: string;
  title: string;
  state: string;
  detail: string;
}

/**
 * The compliance sections of a pack, from what the CRA domain holds for the product: its
 * findings (derived from exposures and policy violations) and every Annex I requirement and
 * Article 13 duty with its status as the CRA routes show it (computed from the data where it
 * can be, else what a person recorded, else not assessed), with the evidence.
 */
export async function complianceSections(
  db: Kysely<DB>,
  productId: string,
): Promise<{ findings: ReportItem[]; annexI: ReportItem[]; duties: ReportItem[] }> {
  const { items: findings } = await listFindings(db, { productId });
  const item = (row: AssessedItem): ReportItem => ({
    ref: row.reference,
    title: row.title,
    state: row.status,
    detail: [
      `basis ${row.basis}`,
      ...row.evidence,
      row.note,
      row.evidenceUrl,
      row.assessedAtUtc ? `assessed ${row.assessedAtUtc}` : null,
    ]
      .filter(Boolean)
      .join(' | '),
  });
  const annexI = (await annexIStatus(db, productId)).map(item);
  const duties = (await listDuties(db, productId)).map(item);
  return {
    findings: findings.map((f) => ({
      ref: f.canonicalId ?? `policy ${f.policyId ?? ''}`.trim(),
      title: `${f.packageName}${f.version ? `@${f.version}` : ''}${f.activelyExploited ? ' (actively exploited)' : ''}`,
      state: f.state,
      detail: [
        `severity ${f.severity ?? 'unknown'}`,
        f.fixReleased === null
          ? null
          : f.fixReleased
            ? `fix released (${f.fixedVersions.join(', ')})`
            : 'no fix released',
        f.knownExploited
          ? `KEV ${f.knownExploited.cveId} added ${f.knownExploited.dateAdded}`
          : null,
        f.justification,
        `detected ${f.detectedAtUtc}`,
        f.reportedAtUtc ? `reported ${f.reportedAtUtc}` : null,
      ]
        .filter(Boolean)
        .join('; '),
    })),
    annexI,
    duties,
  };
}

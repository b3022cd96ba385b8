import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
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
 * findings (derived from exposures and policy violations) and the Annex I and Article 13
 * assessments a person recorded.
 */
export async function complianceSections(
  db: Kysely<DB>,
  productId: string,
): Promise<{ findings: ReportItem[]; annexI: ReportItem[]; duties: ReportItem[] }> {
  const { items: findings } = await listFindings(db, { productId });
  const assessments = await db
    .selectFrom('cra_assessments')
    .select(['area', 'item', 'status', 'note', 'evidence_url', 'assessed_at'])
    .where('product_id', '=', productId)
    .orderBy('item')
    .execute();
  const assessed = (area: 'annex_i' | 'duty') =>
    assessments
      .filter((row) => row.area === area)
      .map((row) => ({
        ref: row.item,
        title: row.item,
        state: row.status,
        detail: [row.note, row.evidence_url, `assessed ${row.assessed_at.toISOString()}`]
          .filter(Boolean)
          .join(' | '),
      }));
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
    annexI: assessed('annex_i'),
    duties: assessed('duty'),
  };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

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
 * actively exploited vulnerabilities and the Annex I and Article 13 assessments recorded.
 */
export async function complianceSections(
  db: Kysely<DB>,
  productId: string,
): Promise<{ findings: ReportItem[]; annexI: ReportItem[]; duties: ReportItem[] }> {
  const exploited = await db
    .selectFrom('cra_exploitations as x')
    .innerJoin('vulnerabilities as v', 'v.id', 'x.vulnerability_id')
    .select(['x.cve_id', 'x.detected_at', 'x.reported_at', 'v.summary', 'v.severity_rating'])
    .where('x.product_id', '=', productId)
    .orderBy('x.detected_at')
    .execute();
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
    findings: exploited.map((row) => ({
      ref: row.cve_id,
      title: row.summary ?? row.cve_id,
      state: row.reported_at ? 'reported' : 'actively_exploited',
      detail: `severity ${row.severity_rating ?? 'unknown'}; detected ${row.detected_at.toISOString()}`,
    })),
    annexI: assessed('annex_i'),
    duties: assessed('duty'),
  };
}

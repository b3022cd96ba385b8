import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { type AssessedItem, annexIStatus, listDuties } from '../../cra/annex-i/assessments';
import { type CraFinding, listFindings } from '../../cra/findings/findings';

/**
 * A row of a pack generated before the sections carried data (display text only). Stored packs
 * are kept as generated, so the renderers still read this shape.
 */
export interface LegacyReportItem {
  ref: string;
  title: string;
  state: string;
  detail: string;
}

export const isLegacyItem = (item: object): item is LegacyReportItem => 'detail' in item;

/**
 * The compliance sections of a pack, as data: the product's findings as
 * `GET /api/v1/cra/findings?productId=` lists them, and every Annex I requirement and Article 13
 * duty as `GET /api/v1/cra/annex-i` and `/duties` show them (status computed from the data where
 * it can be, else what a person recorded, else not assessed; basis and evidence as given).
 */
export async function complianceSections(
  db: Kysely<DB>,
  productId: string,
): Promise<{ findings: CraFinding[]; annexI: AssessedItem[]; duties: AssessedItem[] }> {
  const { items: findings } = await listFindings(db, { productId });
  return {
    findings,
    annexI: await annexIStatus(db, productId),
    duties: await listDuties(db, productId),
  };
}

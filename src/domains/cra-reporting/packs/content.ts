import type { Kysely } from 'kysely';
import { iso } from '../../../core/iso-time';
import type { DB } from '../../../db/schema';
import type { AssessedItem } from '../../cra/annex-i/assessments';
import type { CraFinding } from '../../cra/findings/findings';
import { CONFORMITY_ROUTES, categoryTitle } from '../../cra/products/classification';
import { findProduct } from '../../cra/products/store';
import { generateExportDocument } from '../../sbom/service';
import { readPackageJson } from '../../system/build-info';
import { presentClock, presentIncident } from '../present';
import { clocksOfIncidents, listIncidents, listProductClocks } from '../store';
import { complianceSections, type LegacyReportItem } from './compliance';

/**
 * What a report pack holds (docs/cra.md#report-packs), gathered in one tenant transaction so
 * every section is as of the same moment. JSON is this object; markdown, CSV and PDF render it.
 */
export interface ReportContent {
  packId: string;
  generatedAtUtc: string;
  generator: { name: string; version: string };
  product: {
    productId: string;
    name: string;
    versionLine: string;
    manufacturer: string;
    supportPeriodEnd: string | null;
    securityContact: string | null;
    cvdPolicyUrl: string | null;
    classification: string;
    category: string | null;
    categoryTitle: string | null;
  };
  conformityRoute: {
    modules: string[];
    thirdPartyRequired: boolean;
    legalBasis: string;
    description: string;
  };
  repositories: ReportRepository[];
  /** As `GET /api/v1/cra/findings?productId=` lists them (display rows in packs made before). */
  findings: (CraFinding | LegacyReportItem)[];
  /** As `GET /api/v1/cra/annex-i` and `/duties` show them (display rows in packs made before). */
  annexI: (AssessedItem | LegacyReportItem)[];
  duties: (AssessedItem | LegacyReportItem)[];
  clocks: ReturnType<typeof presentClock>[];
  incidents: ReturnType<typeof presentIncident>[];
}

export interface ReportComponent {
  name: string;
  version: string | null;
  purl: string | null;
  licence: string | null;
}

export interface ReportRepository {
  repositoryId: string;
  name: string;
  lastScannedAtUtc: string | null;
  componentCount: number;
  /** The repository's SBOM, CycloneDX 1.6 (the SBOM exporter's document). */
  sbom: Record<string, unknown>;
}

async function repositoriesOf(
  db: Kysely<DB>,
  packId: string,
  repositoryIds: string[],
  now: Date,
): Promise<ReportRepository[]> {
  if (repositoryIds.length === 0) return [];
  const rows = await db
    .selectFrom('repositories')
    .select(['id', 'full_name', 'last_scanned_at'])
    .where('id', 'in', repositoryIds)
    .orderBy('full_name')
    .execute();
  const result: ReportRepository[] = [];
  for (const row of rows) {
    const document = await generateExportDocument(db, {
      id: `${packId}:${row.id}`,
      repository_id: row.id,
      format: 'cyclonedx-1.6',
      created_at: now,
    });
    result.push({
      repositoryId: row.id,
      name: row.full_name,
      lastScannedAtUtc: iso(row.last_scanned_at),
      componentCount: document.componentCount,
      sbom: JSON.parse(document.text) as Record<string, unknown>,
    });
  }
  return result;
}

/** The components of a CycloneDX document, for the tables of the other formats. */
export function componentsOf(sbom: Record<string, unknown>): ReportComponent[] {
  const components = Array.isArray(sbom.components) ? sbom.components : [];
  return components.map((component: Record<string, unknown>) => {
    const licences = Array.isArray(component.licenses) ? component.licenses : [];
    const first = licences[0] as { expression?: string; license?: { id?: string } } | undefined;
    return {
      name: [component.group, component.name].filter(Boolean).join('/'),
      version: typeof component.version === 'string' ? component.version : null,
      purl: typeof component.purl === 'string' ? component.purl : null,
      licence: first?.expression ?? first?.license?.id ?? null,
    };
  });
}

/** Gathers a product's report content; undefined when the product is gone. */
export async function gatherReportContent(
  db: Kysely<DB>,
  packId: string,
  productId: string,
  now: Date,
): Promise<ReportContent | undefined> {
  const product = await findProduct(db, productId);
  if (!product) return undefined;
  const clocks = await listProductClocks(db, productId);
  const { rows: incidents } = await listIncidents(db, { productId }, { take: 10_000, skip: 0 });
  const incidentClocks = await clocksOfIncidents(
    db,
    incidents.map((incident) => incident.id),
  );
  const sections = await complianceSections(db, productId);
  return {
    packId,
    generatedAtUtc: now.toISOString(),
    generator: { name: 'driftwatch', version: readPackageJson().version },
    product: {
      productId: product.id,
      name: product.name,
      versionLine: product.version_line,
      manufacturer: product.manufacturer,
      supportPeriodEnd: product.support_period_end,
      securityContact: product.security_contact,
      cvdPolicyUrl: product.cvd_policy_url,
      classification: product.classification,
      category: product.category,
      categoryTitle: categoryTitle(product.classification, product.category),
    },
    conformityRoute: { ...CONFORMITY_ROUTES[product.classification] },
    repositories: await repositoriesOf(db, packId, product.repository_ids, now),
    ...sections,
    clocks: clocks.map((clock) => presentClock(clock, now)),
    incidents: incidents.map((incident) => presentIncident(incident, incidentClocks)),
  };
}

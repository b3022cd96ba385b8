import { type Kysely, sql } from 'kysely';
import type { Principal } from '../../../core/principal';
import { notFound, unprocessable } from '../../../core/problem';
import type { DB } from '../../../db/schema';
import {
  type ProductFacts,
  productFacts,
  REMEDIATION_DAYS,
  SBOM_CURRENT_DAYS,
} from '../products/product-facts';
import { type CraProduct, loadProduct } from '../products/products';
import { listProducts } from '../products/store';
import type { AssessmentArea, AssessmentStatus } from '../tables';
import { ANNEX_I_REQUIREMENTS, CRA_DUTIES } from './requirements';

/** One Annex I requirement or duty of one product, with its status and evidence. */
export interface AssessedItem {
  productId: string;
  id: string;
  reference: string;
  title: string;
  status: AssessmentStatus;
  /** computed: from the service's data; assessed: set by a person; none: nobody said yet. */
  basis: 'computed' | 'assessed' | 'none';
  evidence: string[];
  note: string | null;
  evidenceUrl: string | null;
  assessedAtUtc: string | null;
  assessedByTokenId: string | null;
}

type Computed = { status: AssessmentStatus; evidence: string[] };
type Rule = (product: CraProduct, facts: ProductFacts, assessedPartI: number) => Computed;

const inventory = (f: ProductFacts) =>
  `${f.withInventory} of ${f.repositories} linked repositories have a dependency inventory (SBOM exportable as CycloneDX or SPDX); ${f.withCurrentInventory} from a scan of the last ${SBOM_CURRENT_DAYS} days`;

function noKnownExploitable(_p: CraProduct, f: ProductFacts): Computed {
  const evidence = [
    `${f.liveExposures} vulnerability exposures present (not fixed or dismissed)`,
    `${f.liveCriticalWithFix} critical with a released fix; ${f.liveActivelyExploited} on the known-exploited list`,
  ];
  if (f.repositories === 0) return { status: 'not_assessed', evidence: ['no repository linked'] };
  if (f.withInventory === 0)
    return { status: 'not_assessed', evidence: ['no linked repository scanned yet'] };
  if (f.liveCriticalWithFix > 0 || f.liveActivelyExploited > 0)
    return { status: 'not_met', evidence };
  return { status: f.liveExposures > 0 ? 'partly_met' : 'met', evidence };
}

function sbomRule(_p: CraProduct, f: ProductFacts): Computed {
  const evidence = [inventory(f)];
  if (f.repositories > 0 && f.withCurrentInventory === f.repositories)
    return { status: 'met', evidence };
  return { status: f.withInventory > 0 ? 'partly_met' : 'not_met', evidence };
}

function remediationRule(_p: CraProduct, f: ProductFacts): Computed {
  const evidence = [
    `${f.overdueWithFix} high or critical exposures with a released fix open for more than ${REMEDIATION_DAYS} days`,
    `${f.remediatedHighCritical} high or critical exposures remediated; median ${f.medianDaysToRemediate ?? '—'} days from detection to fix`,
  ];
  if (f.withInventory === 0)
    return { status: 'not_assessed', evidence: ['no linked repository scanned yet'] };
  if (f.overdueWithFix === 0) return { status: 'met', evidence };
  return { status: f.remediatedHighCritical > 0 ? 'partly_met' : 'not_met', evidence };
}

const cvdRule: Rule = (p) =>
  p.cvdPolicyUrl
    ? { status: 'met', evidence: [`CVD policy published at ${p.cvdPolicyUrl}`] }
    : { status: 'not_met', evidence: ['no CVD policy URL recorded for the product'] };

const contactRule: Rule = (p) =>
  p.securityContact
    ? { status: 'met', evidence: [`vulnerability reporting contact: ${p.securityContact}`] }
    : { status: 'not_met', evidence: ['no security contact recorded for the product'] };

const ANNEX_I_RULES: Record<string, Rule> = {
  'I-2-a': noKnownExploitable,
  'II-1': sbomRule,
  'II-2': remediationRule,
  'II-5': cvdRule,
  'II-6': contactRule,
};

function supportRule(p: CraProduct): Computed {
  if (!p.supportPeriodEnd)
    return { status: 'not_met', evidence: ['no support period end recorded'] };
  const ended = p.supportPeriodEnd < new Date().toISOString().slice(0, 10);
  return {
    status: 'met',
    evidence: [
      `support period ends ${p.supportPeriodEnd}${ended ? ' (ended)' : ''}`,
      'the rationale in the technical file is not held by the service',
    ],
  };
}

const DUTY_RULES: Record<string, Rule> = {
  risk_assessment: (_p, _f, assessed) => ({
    status: assessed === 0 ? 'not_assessed' : assessed === 14 ? 'met' : 'partly_met',
    evidence: [`${assessed} of 14 Annex I Part I requirements assessed by a person`],
  }),
  component_due_diligence: (p, f) => sbomRule(p, f),
  known_vulnerabilities_documented: (_p, f) => {
    const evidence = [
      `${f.liveExposures} vulnerabilities present, ${f.untriagedExposures} not triaged yet`,
    ];
    if (f.withInventory === 0)
      return { status: 'not_assessed', evidence: ['no linked repository scanned yet'] };
    return { status: f.untriagedExposures === 0 ? 'met' : 'partly_met', evidence };
  },
  support_period: supportRule,
  identification_and_contact: (p) => ({
    status: p.securityContact ? 'met' : 'not_met',
    evidence: [
      `${p.name} ${p.versionLine} by ${p.manufacturer}`,
      p.securityContact ? `contact: ${p.securityContact}` : 'no security contact recorded',
      'type, batch or serial numbers are not held by the service',
    ],
  }),
  user_information: (p, f) => {
    const held = [p.cvdPolicyUrl, p.supportPeriodEnd, f.withInventory > 0 ? 'sbom' : null];
    const count = held.filter(Boolean).length;
    return {
      status: count === 3 ? 'met' : count === 0 ? 'not_met' : 'partly_met',
      evidence: [
        p.cvdPolicyUrl ? `CVD policy: ${p.cvdPolicyUrl}` : 'no CVD policy URL',
        p.supportPeriodEnd ? `support end: ${p.supportPeriodEnd}` : 'no support end date',
        f.withInventory > 0 ? 'an SBOM can be exported' : 'no SBOM yet',
      ],
    };
  },
  sbom: (p, f) => sbomRule(p, f),
};

interface AssessmentRow {
  item: string;
  status: AssessmentStatus;
  note: string;
  evidence_url: string | null;
  assessed_by_token_id: string | null;
  assessed_at: Date;
}

async function assessmentsOf(db: Kysely<DB>, productId: string, area: AssessmentArea) {
  const rows = await db
    .selectFrom('cra_assessments')
    .select(['item', 'status', 'note', 'evidence_url', 'assessed_by_token_id', 'assessed_at'])
    .where('product_id', '=', productId)
    .where('area', '=', area)
    .execute();
  return new Map<string, AssessmentRow>(rows.map((r) => [r.item, r]));
}

function item(
  product: CraProduct,
  definition: { id: string; reference: string; title: string },
  computed: Computed | null,
  row: AssessmentRow | undefined,
): AssessedItem {
  return {
    productId: product.productId,
    ...definition,
    status: computed?.status ?? row?.status ?? 'not_assessed',
    basis: computed ? 'computed' : row ? 'assessed' : 'none',
    evidence: computed?.evidence ?? [],
    note: computed ? null : (row?.note ?? null),
    evidenceUrl: computed ? null : (row?.evidence_url ?? null),
    assessedAtUtc: computed || !row ? null : new Date(row.assessed_at).toISOString(),
    assessedByTokenId: computed ? null : (row?.assessed_by_token_id ?? null),
  };
}

async function forProduct(db: Kysely<DB>, product: CraProduct, area: AssessmentArea) {
  const facts = await productFacts(db, product.productId);
  const annex = await assessmentsOf(db, product.productId, 'annex_i');
  if (area === 'annex_i') {
    return ANNEX_I_REQUIREMENTS.map((r) => {
      const rule = ANNEX_I_RULES[r.id];
      return item(product, r, rule ? rule(product, facts, 0) : null, annex.get(r.id));
    });
  }
  const assessedPartI = [...annex.keys()].filter((id) => id.startsWith('I-')).length;
  const duties = await assessmentsOf(db, product.productId, 'duty');
  return CRA_DUTIES.map((d) => {
    const rule = DUTY_RULES[d.id];
    return item(product, d, rule ? rule(product, facts, assessedPartI) : null, duties.get(d.id));
  });
}

async function productsOf(db: Kysely<DB>, productId: string | undefined): Promise<CraProduct[]> {
  if (productId) return [await loadProduct(db, productId)];
  const { rows } = await listProducts(db, {}, { take: 1000, skip: 0 });
  return Promise.all(rows.map((r) => loadProduct(db, r.id)));
}

/** Annex I status of one product or of every product of the tenant (docs/cra.md#annex-i). */
export async function annexIStatus(db: Kysely<DB>, productId?: string): Promise<AssessedItem[]> {
  const items: AssessedItem[] = [];
  for (const product of await productsOf(db, productId)) {
    items.push(...(await forProduct(db, product, 'annex_i')));
  }
  return items;
}

/** The Article 13 duties of one product or of every product (docs/cra.md#duties). */
export async function listDuties(db: Kysely<DB>, productId?: string): Promise<AssessedItem[]> {
  const items: AssessedItem[] = [];
  for (const product of await productsOf(db, productId)) {
    items.push(...(await forProduct(db, product, 'duty')));
  }
  return items;
}

export interface AssessmentBody {
  productId: string;
  status: AssessmentStatus;
  note: string;
  evidenceUrl?: string | null;
}

/** A person sets a requirement or duty the data cannot show; computed ones are a 422. */
export async function recordAssessment(
  db: Kysely<DB>,
  principal: Principal,
  area: AssessmentArea,
  itemId: string,
  body: AssessmentBody,
): Promise<AssessedItem> {
  const definitions = area === 'annex_i' ? ANNEX_I_REQUIREMENTS : CRA_DUTIES;
  const rules = area === 'annex_i' ? ANNEX_I_RULES : DUTY_RULES;
  if (!definitions.some((d) => d.id === itemId)) {
    throw notFound(area === 'annex_i' ? 'The Annex I requirement' : 'The duty');
  }
  const product = await loadProduct(db, body.productId);
  if (rules[itemId]) {
    throw unprocessable(
      `${itemId} is computed from the service's data and cannot be set by hand.`,
      {
        status: ['is computed for this item'],
      },
    );
  }
  const note = body.note.trim();
  if (!note) throw unprocessable('A note is required.', { note: ['must not be blank'] });
  await db
    .insertInto('cra_assessments')
    .values({
      product_id: product.productId,
      area,
      item: itemId,
      status: body.status,
      note,
      evidence_url: body.evidenceUrl ?? null,
      assessed_by_token_id: principal.tokenId,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'product_id', 'area', 'item']).doUpdateSet({
        status: body.status,
        note,
        evidence_url: body.evidenceUrl ?? null,
        assessed_by_token_id: principal.tokenId,
        assessed_at: sql<Date>`now()`,
      }),
    )
    .execute();
  const items =
    area === 'annex_i'
      ? await annexIStatus(db, product.productId)
      : await listDuties(db, product.productId);
  const found = items.find((i) => i.id === itemId);
  if (!found) throw notFound('The item');
  return found;
}

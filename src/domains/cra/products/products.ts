import type { Kysely } from 'kysely';
import { FieldErrorCollector, notFound } from '../../../core/problem';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { existingRepositories } from '../../repositories/store';
import { detectExploitations } from '../findings/exploitation';
import type { CraClassification } from '../tables';
import {
  CONFORMITY_ROUTES,
  type ConformityRoute,
  categoriesOf,
  categoryTitle,
} from './classification';
import {
  deleteProduct,
  findProduct,
  insertProduct,
  type ProductRow,
  type ProductValues,
  setProductRepositories,
  updateProduct,
} from './store';

/** A CRA product as the API and other domains see it (docs/cra.md#products). */
export interface CraProduct {
  productId: string;
  name: string;
  versionLine: string;
  manufacturer: string;
  supportPeriodEnd: string | null;
  classification: CraClassification;
  category: string | null;
  categoryTitle: string | null;
  conformityRoute: ConformityRoute;
  securityContact: string | null;
  cvdPolicyUrl: string | null;
  repositoryIds: string[];
  createdAtUtc: string;
  updatedAtUtc: string;
}

export function presentProduct(row: ProductRow): CraProduct {
  return {
    productId: row.id,
    name: row.name,
    versionLine: row.version_line,
    manufacturer: row.manufacturer,
    supportPeriodEnd: row.support_period_end,
    classification: row.classification,
    category: row.category,
    categoryTitle: categoryTitle(row.classification, row.category),
    conformityRoute: CONFORMITY_ROUTES[row.classification],
    securityContact: row.security_contact,
    cvdPolicyUrl: row.cvd_policy_url,
    repositoryIds: row.repository_ids,
    createdAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

/**
 * Loads one product of the tenant the transaction is scoped to; 404 when it is not there (another
 * tenant's id included). For other domains (the Article 14 reporting, the report packs).
 */
export async function loadProduct(db: Kysely<DB>, productId: string): Promise<CraProduct> {
  const row = await findProduct(db, productId);
  if (!row) throw notFound('The CRA product');
  return presentProduct(row);
}

export interface ProductBody {
  name?: string;
  versionLine?: string;
  manufacturer?: string;
  supportPeriodEnd?: string | null;
  classification?: CraClassification;
  category?: string | null;
  securityContact?: string | null;
  cvdPolicyUrl?: string | null;
  repositoryIds?: string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function text(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  return value.trim();
}

/** Fields given override the current ones; a class change clears a category that no longer fits. */
function merged(body: ProductBody, current: ProductValues | null): ProductValues {
  const classification = body.classification ?? current?.classification ?? 'default';
  let category = body.category !== undefined ? text(body.category) : (current?.category ?? null);
  if (classification === 'default' && body.category === undefined) category = null;
  return {
    name: text(body.name) ?? current?.name ?? '',
    versionLine: text(body.versionLine) ?? current?.versionLine ?? '',
    manufacturer: text(body.manufacturer) ?? current?.manufacturer ?? '',
    supportPeriodEnd:
      body.supportPeriodEnd !== undefined
        ? body.supportPeriodEnd
        : (current?.supportPeriodEnd ?? null),
    classification,
    category: category || null,
    securityContact:
      body.securityContact !== undefined
        ? (text(body.securityContact) ?? null)
        : (current?.securityContact ?? null),
    cvdPolicyUrl:
      body.cvdPolicyUrl !== undefined
        ? (text(body.cvdPolicyUrl) ?? null)
        : (current?.cvdPolicyUrl ?? null),
  };
}

function checkValues(values: ProductValues, errors: FieldErrorCollector): void {
  for (const [field, value] of [
    ['name', values.name],
    ['versionLine', values.versionLine],
    ['manufacturer', values.manufacturer],
  ] as const) {
    if (value === '') errors.add(field, 'must not be blank');
  }
  const categories = categoriesOf(values.classification);
  if (values.classification === 'default') {
    if (values.category !== null) errors.add('category', 'must be null when the class is default');
  } else if (values.category === null) {
    errors.add(
      'category',
      `is required for ${values.classification}: one of ${categories.join(', ')}`,
    );
  } else if (!categories.includes(values.category)) {
    errors.add('category', `must be one of ${categories.join(', ')} for ${values.classification}`);
  }
  const contact = values.securityContact;
  if (contact !== null && !EMAIL.test(contact) && !/^https:\/\/\S+$/i.test(contact)) {
    errors.add('securityContact', 'must be an e-mail address or an https URL');
  }
  if (values.cvdPolicyUrl !== null && !/^https?:\/\/\S+$/i.test(values.cvdPolicyUrl)) {
    errors.add('cvdPolicyUrl', 'must be an http or https URL');
  }
}

async function checkRepositories(
  db: Kysely<DB>,
  ids: readonly string[] | undefined,
  errors: FieldErrorCollector,
): Promise<void> {
  if (!ids || ids.length === 0) return;
  const known = await existingRepositories(db, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    errors.add('repositoryIds', `unknown repositories: ${unknown.join(', ')}`);
}

function valuesOf(row: ProductRow): ProductValues {
  return {
    name: row.name,
    versionLine: row.version_line,
    manufacturer: row.manufacturer,
    supportPeriodEnd: row.support_period_end,
    classification: row.classification,
    category: row.category,
    securityContact: row.security_contact,
    cvdPolicyUrl: row.cvd_policy_url,
  };
}

export async function createProduct(
  db: Kysely<DB>,
  tenantId: string,
  body: ProductBody,
): Promise<CraProduct> {
  const values = merged(body, null);
  const errors = new FieldErrorCollector();
  checkValues(values, errors);
  await checkRepositories(db, body.repositoryIds, errors);
  errors.throwIfAny(400, 'The CRA product is not valid.');
  const id = newId();
  await insertProduct(db, id, values);
  if (body.repositoryIds) await setProductRepositories(db, id, body.repositoryIds);
  await detectExploitations(db, { tenantId, productIds: [id] });
  return loadProduct(db, id);
}

export async function changeProduct(
  db: Kysely<DB>,
  tenantId: string,
  productId: string,
  body: ProductBody,
): Promise<CraProduct> {
  const current = await findProduct(db, productId, true);
  if (!current) throw notFound('The CRA product');
  const values = merged(body, valuesOf(current));
  const errors = new FieldErrorCollector();
  checkValues(values, errors);
  await checkRepositories(db, body.repositoryIds, errors);
  errors.throwIfAny(400, 'The CRA product is not valid.');
  await updateProduct(db, productId, values);
  if (body.repositoryIds) await setProductRepositories(db, productId, body.repositoryIds);
  await detectExploitations(db, { tenantId, productIds: [productId] });
  return loadProduct(db, productId);
}

export async function removeProduct(db: Kysely<DB>, productId: string): Promise<void> {
  if (!(await deleteProduct(db, productId))) throw notFound('The CRA product');
}

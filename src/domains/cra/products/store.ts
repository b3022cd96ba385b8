import { type Kysely, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../../db/paging';
import type { DB } from '../../../db/schema';
import type { CraClassification } from '../tables';

/** A product as read: the date columns as `YYYY-MM-DD`, its repositories sorted. */
export interface ProductRow {
  id: string;
  name: string;
  version_line: string;
  manufacturer: string;
  support_period_end: string | null;
  classification: CraClassification;
  category: string | null;
  security_contact: string | null;
  cvd_policy_url: string | null;
  created_at: Date;
  updated_at: Date;
  repository_ids: string[];
}

export interface ProductValues {
  name: string;
  versionLine: string;
  manufacturer: string;
  supportPeriodEnd: string | null;
  classification: CraClassification;
  category: string | null;
  securityContact: string | null;
  cvdPolicyUrl: string | null;
}

function columns(values: ProductValues) {
  return {
    name: values.name,
    version_line: values.versionLine,
    manufacturer: values.manufacturer,
    support_period_end: values.supportPeriodEnd,
    classification: values.classification,
    category: values.category,
    security_contact: values.securityContact,
    cvd_policy_url: values.cvdPolicyUrl,
  };
}

function products(db: Kysely<DB>) {
  return db.selectFrom('cra_products as p');
}

function withColumns(query: ReturnType<typeof products>) {
  return query.select([
    'p.id',
    'p.name',
    'p.version_line',
    'p.manufacturer',
    sql<string | null>`to_char(p.support_period_end, 'YYYY-MM-DD')`.as('support_period_end'),
    'p.classification',
    'p.category',
    'p.security_contact',
    'p.cvd_policy_url',
    'p.created_at',
    'p.updated_at',
    sql<string[]>`coalesce((SELECT array_agg(r.repository_id ORDER BY r.repository_id)
        FROM cra_product_repositories r
        WHERE r.tenant_id = p.tenant_id AND r.product_id = p.id), '{}')`.as('repository_ids'),
  ]);
}

export async function findProduct(
  db: Kysely<DB>,
  id: string,
  lock = false,
): Promise<ProductRow | undefined> {
  if (lock) {
    const locked = await db
      .selectFrom('cra_products')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return undefined;
  }
  return withColumns(products(db)).where('p.id', '=', id).executeTakeFirst();
}

export async function listProducts(
  db: Kysely<DB>,
  filters: { classification?: CraClassification },
  page: TakeSkip,
): Promise<TakeSkipPage<ProductRow>> {
  let query = products(db);
  if (filters.classification) query = query.where('p.classification', '=', filters.classification);
  return takeSkipPage(
    query,
    (filtered) => withColumns(filtered).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc'),
    page,
  );
}

export async function insertProduct(db: Kysely<DB>, id: string, values: ProductValues) {
  await db
    .insertInto('cra_products')
    .values({ id, ...columns(values) })
    .execute();
}

export async function updateProduct(db: Kysely<DB>, id: string, values: ProductValues) {
  await db
    .updateTable('cra_products')
    .set({ ...columns(values), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export async function deleteProduct(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db
    .deleteFrom('cra_products')
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces the product's repositories with `repositoryIds` (already checked to exist). */
export async function setProductRepositories(
  db: Kysely<DB>,
  productId: string,
  repositoryIds: readonly string[],
): Promise<void> {
  let removal = db.deleteFrom('cra_product_repositories').where('product_id', '=', productId);
  if (repositoryIds.length > 0) {
    removal = removal.where('repository_id', 'not in', [...repositoryIds]);
  }
  await removal.execute();
  if (repositoryIds.length === 0) return;
  await db
    .insertInto('cra_product_repositories')
    .values(repositoryIds.map((repository_id) => ({ product_id: productId, repository_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

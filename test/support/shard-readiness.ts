import type pg from 'pg';

/**
 * Whether the schema can be distributed by tenant (docs/scaling.md#distribution-plan): Citus
 * distributes a table by a column and refuses a primary or unique key, or a foreign key between
 * distributed tables, that does not include it; here the rule is stricter, so every key is also
 * a tenant-local index: tenant_id leads every primary and unique key. A table without tenant_id
 * is global and must be listed in `GLOBAL_TABLES` with its class.
 */

/**
 * `reference`: replicated to every node in a sharded deployment; tenant tables may reference it.
 * `coordinator`: service-wide state the service reads through the system connection only (job
 * queue bookkeeping, operator settings, the billing routing directory); no tenant table
 * references it.
 */
export type GlobalClass = 'reference' | 'coordinator';

export interface CatalogueTable {
  name: string;
  /** Column names in order. */
  columns: string[];
  tenantNullable: boolean;
  /** Primary key, unique constraints and unique indexes: their name and key columns in order. */
  uniques: Array<{ name: string; kind: 'primary key' | 'unique'; columns: string[] }>;
  /** Foreign keys: their columns and the referenced table's columns, pairwise. */
  foreignKeys: Array<{ name: string; columns: string[]; target: string; targetColumns: string[] }>;
}

/** Every table of the schema (partitions excluded) with its keys, from the catalogue. */
export async function readCatalogue(pool: pg.Pool, schema = 'public'): Promise<CatalogueTable[]> {
  const { rows } = await pool.query<CatalogueTable>(
    `SELECT c.relname AS name,
       array(SELECT a.attname::text FROM pg_attribute a
             WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
             ORDER BY a.attnum) AS columns,
       coalesce((SELECT NOT a.attnotnull FROM pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped),
                false) AS "tenantNullable",
       coalesce((SELECT json_agg(json_build_object(
                   'name', (SELECT x.relname FROM pg_class x WHERE x.oid = i.indexrelid),
                   'kind', CASE WHEN i.indisprimary THEN 'primary key' ELSE 'unique' END,
                   'columns', array(SELECT coalesce(a.attname::text, '(expression)')
                                    FROM unnest(i.indkey[0:i.indnkeyatts - 1]) WITH ORDINALITY k(n, o)
                                    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.n
                                    ORDER BY k.o)))
                 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisunique), '[]'::json)
         AS uniques,
       coalesce((SELECT json_agg(json_build_object(
                   'name', f.conname,
                   'target', (SELECT x.relname FROM pg_class x WHERE x.oid = f.confrelid),
                   'columns', array(SELECT a.attname::text FROM unnest(f.conkey) WITH ORDINALITY k(n, o)
                                    JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.n
                                    ORDER BY k.o),
                   'targetColumns', array(SELECT a.attname::text
                                    FROM unnest(f.confkey) WITH ORDINALITY k(n, o)
                                    JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.n
                                    ORDER BY k.o)))
                 FROM pg_constraint f WHERE f.conrelid = c.oid AND f.contype = 'f'), '[]'::json)
         AS "foreignKeys"
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`,
    [schema],
  );
  return rows;
}

export function isTenantTable(table: CatalogueTable): boolean {
  return table.columns.includes('tenant_id');
}

/** What keeps `table` from being distributed by tenant_id; empty when nothing does. */
export function shardProblems(
  table: CatalogueTable,
  tenantTables: ReadonlySet<string>,
  globals: Readonly<Record<string, GlobalClass>>,
): string[] {
  if (!isTenantTable(table)) {
    return table.name in globals
      ? []
      : [`${table.name}: no tenant_id and not classified as a global table`];
  }
  const problems: string[] = [];
  if (table.tenantNullable) problems.push(`${table.name}: tenant_id is nullable`);
  for (const key of table.uniques) {
    if (key.columns[0] === 'tenant_id') continue;
    problems.push(`${table.name}: ${key.kind} ${key.name} (${key.columns.join(', ')})`);
  }
  for (const fk of table.foreignKeys) {
    const target = fk.target;
    if (tenantTables.has(target)) {
      const at = fk.columns.indexOf('tenant_id');
      if (at < 0 || fk.targetColumns[at] !== 'tenant_id') {
        problems.push(
          `${table.name}: foreign key ${fk.name} (${fk.columns.join(', ')}) -> ${target} without tenant_id`,
        );
      }
      continue;
    }
    if (target === 'tenants' && fk.columns.join() === 'tenant_id') continue;
    if (globals[target] !== 'reference') {
      problems.push(`${table.name}: foreign key ${fk.name} -> ${target}, not a reference table`);
    }
  }
  return problems;
}

/** Every problem of every table in `catalogue`. */
export function schemaShardProblems(
  catalogue: readonly CatalogueTable[],
  globals: Readonly<Record<string, GlobalClass>>,
): string[] {
  const tenantTables = new Set(catalogue.filter(isTenantTable).map((table) => table.name));
  return catalogue.flatMap((table) => shardProblems(table, tenantTables, globals));
}

import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * The tenant tables, read from the database catalogue rather than kept by hand: every table of
 * the schema with a `tenant_id` column. Deletion, data export and usage all walk this list, so a
 * table another domain adds later is covered without touching this code.
 */
export interface TenantTableInfo {
  name: string;
  /** Columns exported as they are (secrets and stored archives left out). */
  exportedColumns: string[];
  /** Columns left out of exports: sealed secrets, token hashes, archives. */
  withheldColumns: string[];
}

// Sealed provider secrets, token hashes, the replay copy of a raw token, stored export archives.
const WITHHELD_COLUMN = /(_sealed|^secret_hash|^replay_secret|^archive|_secret_enc|_ciphertext)$/;

export function isWithheldColumn(column: string): boolean {
  return WITHHELD_COLUMN.test(column);
}

interface CatalogueRow {
  name: string;
  columns: string[];
  references: string[] | null;
}

/**
 * The tenant tables in deletion order: a table that references another comes before it, so
 * deleting in this order never relies on a cascade (each batch deletes exactly what it names).
 */
export async function listTenantTables(db: Kysely<DB>): Promise<TenantTableInfo[]> {
  const { rows } = await sql<CatalogueRow>`
    SELECT c.relname AS name,
      array(SELECT a.attname::text FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum) AS columns,
      array(SELECT DISTINCT f.confrelid::regclass::text FROM pg_constraint f
            WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS references
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND EXISTS (SELECT 1 FROM pg_attribute t WHERE t.attrelid = c.oid
                  AND t.attname = 'tenant_id' AND NOT t.attisdropped)
    ORDER BY c.relname`.execute(db);
  return deletionOrder(rows).map((row) => ({
    name: row.name,
    exportedColumns: row.columns.filter((column) => !isWithheldColumn(column)),
    withheldColumns: row.columns.filter(isWithheldColumn),
  }));
}

/** Referencing tables first (a depth-first walk over the references among tenant tables). */
function deletionOrder(rows: CatalogueRow[]): CatalogueRow[] {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const referencedBy = new Map<string, string[]>();
  for (const row of rows) {
    for (const target of row.references ?? []) {
      if (!byName.has(target)) continue;
      referencedBy.set(target, [...(referencedBy.get(target) ?? []), row.name]);
    }
  }
  const ordered: CatalogueRow[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (name: string) => {
    if (placed.has(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const child of referencedBy.get(name) ?? []) place(child);
    visiting.delete(name);
    placed.add(name);
    const row = byName.get(name);
    if (row) ordered.push(row);
  };
  for (const row of rows) place(row.name);
  return ordered;
}

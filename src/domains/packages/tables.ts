import type { Generated } from 'kysely';

/** The shared catalogue: one row per (ecosystem, normalised name); no tenant. */
export interface PackageTable {
  id: string;
  ecosystem: string;
  name: string;
  /** purl without a version: the package's identity. */
  purl: string;
  created_at: Generated<Date>;
}

export interface PackageTables {
  packages: PackageTable;
}

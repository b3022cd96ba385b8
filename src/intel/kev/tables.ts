import type { Generated } from 'kysely';

/** The known-exploited list (CISA KEV catalogue format); no tenant. */
export interface KnownExploitedTable {
  cve_id: string;
  vendor_project: string;
  product: string;
  vulnerability_name: string | null;
  date_added: string;
  short_description: string | null;
  required_action: string | null;
  due_date: string | null;
  known_ransomware_campaign_use: string | null;
  notes: string | null;
  cwes: Generated<string[]>;
  catalog_version: string;
  imported_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface KnownExploitedImportTable {
  id: string;
  catalog_version: string;
  date_released: Date;
  entries: number;
  added: number;
  updated: number;
  source: string | null;
  imported_at: Generated<Date>;
}

export interface KevTables {
  known_exploited_vulnerabilities: KnownExploitedTable;
  known_exploited_imports: KnownExploitedImportTable;
}

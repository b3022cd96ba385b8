import type { Generated, JSONColumnType } from 'kysely';
import type { AffectedRange, FindingKind, Reference, SeverityRating } from '../osv/types';

export type { SeverityRating };
/** Ranges as the OSV parser normalised them (src/intel/osv/types.ts). */
export type StoredRange = AffectedRange;
export type StoredReference = Reference;

/** One flaw: the alias-joined group of advisories (shared catalogue, no tenant). */
export interface VulnerabilityTable {
  id: string;
  canonical_id: string;
  aliases: Generated<string[]>;
  summary: string | null;
  details: string | null;
  severity_rating: SeverityRating | null;
  /** numeric comes back from pg as a string. */
  severity_score: string | number | null;
  severity_vector: string | null;
  severity_type: string | null;
  published_at: Date | null;
  modified_at: Date;
  withdrawn_at: Date | null;
  ecosystems: Generated<string[]>;
  search_text: Generated<string>;
  merged_into: string | null;
  /** `malicious` when the group has an OSV MAL- record, else `vulnerability`. */
  kind: Generated<FindingKind>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OsvAdvisoryTable {
  id: string;
  vulnerability_id: string;
  modified_at: Date;
  published_at: Date | null;
  withdrawn_at: Date | null;
  summary: string | null;
  details: string | null;
  severity_rating: SeverityRating | null;
  severity_score: string | number | null;
  severity_vector: string | null;
  severity_type: string | null;
  refs: JSONColumnType<StoredReference[]>;
  source: string | null;
  imported_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OsvAdvisoryAliasTable {
  advisory_id: string;
  alias: string;
}

export interface OsvAffectedTable {
  advisory_id: string;
  ordinal: number;
  ecosystem: string;
  osv_ecosystem: string;
  name: string;
  osv_name: string;
  ranges: JSONColumnType<StoredRange[]>;
  versions: string[];
  fixed_versions: string[];
  withdrawn: boolean;
}

export interface OsvFeedStateTable {
  url: string;
  etag: string | null;
  last_modified: string | null;
  last_checked_at: Date | null;
  last_changed_at: Date | null;
  last_status: string | null;
  last_error: string | null;
  records: Generated<number>;
}

export interface AdvisoryStoreTables {
  vulnerabilities: VulnerabilityTable;
  osv_advisories: OsvAdvisoryTable;
  osv_advisory_aliases: OsvAdvisoryAliasTable;
  osv_affected: OsvAffectedTable;
  osv_feed_state: OsvFeedStateTable;
}

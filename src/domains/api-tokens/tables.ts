import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';

export interface ApiTokenTable {
  tenant_id: TenantColumn;
  id: string;
  name: string;
  prefix: string;
  secret_hash: Buffer;
  roles: string[];
  role_scope_json: string;
  expires_at: Date | null;
  created_at: Generated<Date>;
  created_by_token_id: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  /** Hash of (creator, request) recognising a repeated create within the replay window. */
  replay_key: string | null;
  /** The raw secret sealed with the master key, kept only until `replay_until`. */
  replay_secret: string | null;
  replay_until: Date | null;
}

export interface ApiTokenTables {
  api_tokens: ApiTokenTable;
}

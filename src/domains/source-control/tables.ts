import type { Generated } from 'kysely';
import type { TenantColumn } from '../../db/tenant-column';
import type { ConnectionProvider } from '../../sources/types';

export type ConnectionStatus = 'active' | 'suspended' | 'revoked' | 'error';

export interface SourceControlConnectionTable {
  tenant_id: TenantColumn;
  id: string;
  provider: ConnectionProvider;
  name: string;
  base_url: string | null;
  external_id: string | null;
  account_name: string | null;
  status: Generated<ConnectionStatus>;
  status_reason: string | null;
  /** Sealed JSON credentials (secret-box); never returned or logged. */
  credentials_sealed: string | null;
  webhook_secret_sealed: string | null;
  /** SHA-256 of the webhook secret, for token-carrying deliveries (0004_source_control.sql). */
  webhook_token_hash: Buffer | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SourceControlTables {
  source_control_connections: SourceControlConnectionTable;
}

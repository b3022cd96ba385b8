import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/**
 * The owning tenant, filled from the scope like every tenant column; `SYSTEM_OWNER` for the
 * system-owned deliveries of status webhook subscribers (docs/decisions/0007-system-owned-
 * deliveries.md, 0010-shard-ready-keys.md: a distribution column holds no null).
 */
export type DeliveryOwnerColumn = ColumnType<string, string | undefined, never>;

/** The owner of system-owned deliveries: the nil UUID, which no tenant has (ids are UUIDv7). */
export const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What one attempt came to: 2xx, 410 (the receiver says the endpoint is gone), anything else. */
export type AttemptOutcome = 'succeeded' | 'gone' | 'failed';

export interface OutboundDeliveryTable {
  tenant_id: DeliveryOwnerColumn;
  id: string;
  target_kind: string;
  target_id: string;
  event_type: string;
  payload: JSONColumnType<Record<string, unknown>, string, string>;
  status: Generated<DeliveryStatus>;
  attempt_count: Generated<number>;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
  updated_at: Generated<Date>;
}

export interface OutboundDeliveryAttemptTable {
  tenant_id: DeliveryOwnerColumn;
  delivery_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  outcome: AttemptOutcome;
  error: string | null;
}

export interface OutboundDeliveryTables {
  outbound_deliveries: OutboundDeliveryTable;
  outbound_delivery_attempts: OutboundDeliveryAttemptTable;
}

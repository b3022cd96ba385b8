import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { OutboundKind } from '../../security/outbound-guard';
import type { AttemptOutcome } from './tables';

/**
 * What the shared delivery module needs from a domain that owns delivery targets
 * (docs/integrations.md#the-shared-delivery-module). The module owns deliveries and attempts;
 * the owner keeps its targets' state (enabled, disabled and why) and is told each outcome in the
 * same transaction that records it.
 */
export interface DeliveryTarget {
  url: string;
  /** Standard Webhooks secret (`whsec_` + base64). */
  secret: string;
  /** Inactive targets get nothing: their pending deliveries are cancelled. */
  active: boolean;
  /** Which operator allow-list of the outbound guard applies. */
  outboundKind: OutboundKind;
}

export interface AttemptReport {
  /** Null for system-owned deliveries (status webhook subscribers). */
  tenantId: string | null;
  targetId: string;
  deliveryId: string;
  outcome: AttemptOutcome;
  /** This failure was the delivery's last attempt. */
  exhausted: boolean;
}

export interface DeliveryTargetKind {
  /**
   * The target as it is now, in a transaction of the delivery's scope (its tenant's, or the
   * system connection for system-owned kinds); null when it no longer exists.
   */
  load: (db: Kysely<DB>, targetId: string) => Promise<DeliveryTarget | null>;
  /**
   * Locks the target's row (FOR UPDATE) for the transaction; false when it no longer exists.
   * Lock order (docs/integrations.md#lock-order): a target before any of its deliveries, in
   * every transaction that touches both, so a worker recording an attempt and a request
   * disabling the target never wait on each other in a circle.
   */
  lock: (db: Kysely<DB>, targetId: string) => Promise<boolean>;
  /** After each attempt, in the transaction that records it. */
  attempted: (db: Kysely<DB>, report: AttemptReport) => Promise<void>;
}

/** target_kind → its owner's adapter, given by the composition root. */
export type DeliveryTargetKinds = Readonly<Record<string, DeliveryTargetKind>>;

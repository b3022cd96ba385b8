import type { Generated } from 'kysely';

/** What a component's measurement says (after hysteresis); `unknown`: nothing to measure yet. */
export const MEASURED_STATES = ['operational', 'degraded', 'outage', 'unknown'] as const;
export type MeasuredState = (typeof MEASURED_STATES)[number];

/** What an operator may set a component to. */
export const OVERRIDE_STATES = ['operational', 'degraded', 'outage', 'maintenance'] as const;
export type OverrideState = (typeof OVERRIDE_STATES)[number];

export type ComponentState = MeasuredState | OverrideState;

export const COMPONENTS = [
  'api',
  'database',
  'job-workers',
  'vulnerability-data',
  'registry-metadata',
  'source-control-ingest',
] as const;
export type ComponentId = (typeof COMPONENTS)[number];

export const INCIDENT_IMPACTS = ['minor', 'major', 'critical', 'maintenance'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const CHANGELOG_KINDS = ['release', 'change', 'deprecation'] as const;
export type ChangelogKind = (typeof CHANGELOG_KINDS)[number];

export interface StatusComponentTable {
  component: ComponentId;
  measured_state: MeasuredState;
  /** The last evaluation's reading before hysteresis (null: evaluated before it was kept). */
  raw_state: MeasuredState | null;
  pending_state: MeasuredState | null;
  pending_count: Generated<number>;
  measurement: Generated<Record<string, unknown>>;
  detail: Generated<string>;
  override_state: OverrideState | null;
  override_reason: string | null;
  override_until: Date | null;
  changed_at: Generated<Date>;
  evaluated_at: Generated<Date>;
}

export interface StatusIncidentTable {
  id: string;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  components: Generated<string[]>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  resolved_at: Date | null;
}

export interface StatusIncidentUpdateTable {
  id: string;
  incident_id: string;
  status: IncidentStatus;
  body: string;
  created_at: Generated<Date>;
}

export interface StatusChangelogTable {
  id: string;
  kind: ChangelogKind;
  title: string;
  body: Generated<string>;
  version: string | null;
  published_at: Generated<Date>;
}

export interface StatusEmailSubscriptionTable {
  id: string;
  email: string;
  state: 'pending' | 'confirmed' | 'unsubscribed';
  confirm_token_hash: Buffer | null;
  unsubscribe_token_hash: Buffer;
  /** The unsubscribe token sealed with the secret box: every notification carries the link. */
  unsubscribe_token_sealed: string | null;
  created_at: Generated<Date>;
  confirmed_at: Date | null;
  confirm_sent_at: Date | null;
  unsubscribed_at: Date | null;
}

export interface StatusEmailOutboxTable {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  /** The List-Unsubscribe URL (notifications), null for the confirmation mail. */
  list_unsubscribe: string | null;
  attempt_count: Generated<number>;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
  failed_at: Date | null;
}

export interface StatusWebhookSubscriptionTable {
  id: string;
  url: string;
  secret_sealed: string;
  unsubscribe_token_hash: Buffer;
  status: Generated<'active' | 'disabled'>;
  created_at: Generated<Date>;
  disabled_at: Date | null;
  /** Who created it: a key of the client's address (clientKey), for the per-client cap. */
  client_key: string | null;
}

export interface StatusTables {
  status_components: StatusComponentTable;
  status_incidents: StatusIncidentTable;
  status_incident_updates: StatusIncidentUpdateTable;
  status_changelog: StatusChangelogTable;
  status_email_subscriptions: StatusEmailSubscriptionTable;
  status_email_outbox: StatusEmailOutboxTable;
  status_webhook_subscriptions: StatusWebhookSubscriptionTable;
}

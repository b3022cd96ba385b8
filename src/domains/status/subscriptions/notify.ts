import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { queueDeliveries } from '../../outbound-deliveries/store';
import type { ComponentState, IncidentImpact, IncidentStatus } from '../tables';
import { type OutgoingMail, queueMail } from './mail';
import { STATUS_WEBHOOK_TARGET, type SubscriptionContext } from './service';

/**
 * Notifications to subscribers (docs/status.md#notifications): one per incident created,
 * updated or resolved and per component state change, written in the transaction of that
 * change — a mail per confirmed address into the outbox, a delivery per active webhook
 * subscriber through the shared delivery module (system-owned, docs/events.md#status-events).
 */
export type StatusEventType =
  | 'status.incident.created'
  | 'status.incident.updated'
  | 'status.incident.resolved'
  | 'status.component.changed';

export interface IncidentNotice {
  incidentId: string;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  components: string[];
  update: { status: IncidentStatus; body: string };
}

export interface ComponentNotice {
  componentId: string;
  name: string;
  state: ComponentState;
  previousState: ComponentState;
  detail: string;
}

export type StatusNotice =
  | { type: Exclude<StatusEventType, 'status.component.changed'>; incident: IncidentNotice }
  | { type: 'status.component.changed'; component: ComponentNotice };

/** Tells subscribers, in the caller's system transaction. Null: notifications are off. */
export type Notifier = (trx: Kysely<DB>, notice: StatusNotice) => Promise<void>;

const VERBS = {
  'status.incident.created': 'New incident',
  'status.incident.updated': 'Incident update',
  'status.incident.resolved': 'Resolved',
} as const;

function text(notice: StatusNotice, base: string): { subject: string; lines: string[] } {
  if (notice.type === 'status.component.changed') {
    const { component } = notice;
    return {
      subject: `${component.name}: ${component.state}`,
      lines: [
        `${component.name} is now ${component.state} (was ${component.previousState}).`,
        ...(component.detail ? ['', component.detail] : []),
      ],
    };
  }
  const { incident } = notice;
  return {
    subject: `${VERBS[notice.type]}: ${incident.title}`,
    lines: [
      `${incident.title} (${incident.impact}): ${incident.update.status}`,
      ...(incident.components.length > 0 ? [`Affects: ${incident.components.join(', ')}`] : []),
      '',
      incident.update.body,
      '',
      `Details: ${base}/status#incident-${incident.incidentId}`,
    ],
  };
}

/** The webhook payload (`data` of the Standard Webhooks envelope; docs/events.md). */
function payloadOf(notice: StatusNotice, base: string): Record<string, unknown> {
  if (notice.type === 'status.component.changed') {
    return { ...notice.component, url: `${base}/status` };
  }
  return { ...notice.incident, url: `${base}/status#incident-${notice.incident.incidentId}` };
}

export function subscriberNotifier(context: SubscriptionContext): Notifier {
  const base = context.config.statusMail.publicBaseUrl;
  return async (trx, notice) => {
    const { subject, lines } = text(notice, base);
    const subscribers = await trx
      .selectFrom('status_email_subscriptions')
      .select(['email', 'unsubscribe_token_sealed'])
      .where('state', '=', 'confirmed')
      .where('unsubscribe_token_sealed', 'is not', null)
      .execute();
    const mails = subscribers.map((subscriber): OutgoingMail => {
      const token = context.secretBox.open(subscriber.unsubscribe_token_sealed ?? '');
      const unsubscribe = `${base}/status/unsubscribe?token=${token}`;
      return {
        recipient: subscriber.email,
        subject: `[Driftwatch status] ${subject}`,
        body: [...lines, '', `Status page: ${base}/status`, `Unsubscribe: ${unsubscribe}`].join(
          '\n',
        ),
        listUnsubscribe: unsubscribe,
      };
    });
    await queueMail(trx, mails);
    const hooks = await trx
      .selectFrom('status_webhook_subscriptions')
      .select('id')
      .where('status', '=', 'active')
      .execute();
    await queueDeliveries(trx, {
      tenantId: null,
      targetKind: STATUS_WEBHOOK_TARGET,
      targetIds: hooks.map((hook) => hook.id),
      eventType: notice.type,
      payload: payloadOf(notice, base),
    });
  };
}

import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../../config';
import { FieldErrorCollector } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { checkUrl, OutboundRefusedError, outboundPolicy } from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import { generateSigningSecret } from '../outbound-deliveries/send';
import { cancelPendingDeliveries } from '../outbound-deliveries/store';
import type { DeliveryTargetKind } from '../outbound-deliveries/targets';
import { type OutgoingMail, queueMail } from './mail';

/**
 * E-mail and webhook subscriptions to the status surface (docs/status.md#subscriptions).
 * Tokens are 32 random bytes (base64url), one per purpose, stored as SHA-256 only; the
 * unsubscribe token of an e-mail subscription is also kept sealed because every notification
 * carries its link.
 */
export const STATUS_WEBHOOK_TARGET = 'status-webhook';

export interface SubscriptionContext {
  config: Pick<Config, 'statusMail' | 'outbound'>;
  secretBox: SecretBox;
}

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

/** A mailbox address as stored: trimmed, lower case; 400 with `errors.email` otherwise. */
export function readEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const errors = new FieldErrorCollector();
  if (email.length === 0) errors.add('email', 'is required');
  else if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
    errors.add('email', 'must be an e-mail address (name@domain)');
  }
  errors.throwIfAny(400);
  return email;
}

export function confirmMail(context: SubscriptionContext, email: string, token: string) {
  const base = context.config.statusMail.publicBaseUrl;
  return {
    recipient: email,
    subject: 'Confirm your Driftwatch status subscription',
    body: [
      'Someone, hopefully you, asked to receive Driftwatch status notifications at this address.',
      '',
      'Confirm the subscription:',
      `${base}/status/subscribe/confirm?token=${token}`,
      '',
      'If it was not you, ignore this message: nothing is sent before the address is confirmed.',
      '',
      `Status page: ${base}/status`,
    ].join('\n'),
    listUnsubscribe: null,
  } satisfies OutgoingMail;
}

/**
 * Subscribes an address (double opt-in). New, pending or unsubscribed: it is (again) pending and
 * gets a confirmation mail — a pending one at most every `confirmResendMinutes`. Confirmed:
 * nothing changes. The caller answers the same in every case.
 */
export async function subscribeEmail(
  system: Kysely<DB>,
  context: SubscriptionContext,
  rawEmail: string,
): Promise<void> {
  const email = readEmail(rawEmail);
  const resendMinutes = context.config.statusMail.confirmResendMinutes;
  await system.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('status_email_subscriptions')
      .select(['id', 'state'])
      .select(
        sql<boolean>`confirm_sent_at IS NOT NULL AND confirm_sent_at > now() - make_interval(mins => ${resendMinutes})`.as(
          'recentlySent',
        ),
      )
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    if (existing?.state === 'confirmed') return;
    if (existing?.state === 'pending' && existing.recentlySent) return;
    const confirmToken = newToken();
    const unsubscribeToken = newToken();
    const tokens = {
      state: 'pending' as const,
      confirm_token_hash: hashToken(confirmToken),
      unsubscribe_token_hash: hashToken(unsubscribeToken),
      unsubscribe_token_sealed: context.secretBox.seal(unsubscribeToken),
      confirm_sent_at: sql<Date>`now()`,
      confirmed_at: null,
      unsubscribed_at: null,
    };
    if (existing) {
      await trx
        .updateTable('status_email_subscriptions')
        .set(tokens)
        .where('id', '=', existing.id)
        .execute();
    } else {
      await trx
        .insertInto('status_email_subscriptions')
        .values({ id: newId(), email, ...tokens })
        .execute();
    }
    await queueMail(trx, [confirmMail(context, email, confirmToken)]);
  });
}

export type TokenOutcome = 'confirmed' | 'unsubscribed' | null;

/** Confirms the subscription of a confirm token (again: still confirmed); null when unknown. */
export async function confirmEmail(system: Kysely<DB>, token: string): Promise<TokenOutcome> {
  const row = await system
    .updateTable('status_email_subscriptions')
    .set({ state: 'confirmed', confirmed_at: sql<Date>`COALESCE(confirmed_at, now())` })
    .where('confirm_token_hash', '=', hashToken(token))
    .where('state', 'in', ['pending', 'confirmed'])
    .returning('id')
    .executeTakeFirst();
  return row ? 'confirmed' : null;
}

/** Ends the subscription of an unsubscribe token (again: still ended); null when unknown. */
export async function unsubscribeEmail(system: Kysely<DB>, token: string): Promise<TokenOutcome> {
  const row = await system
    .updateTable('status_email_subscriptions')
    .set({
      state: 'unsubscribed',
      confirm_token_hash: null,
      unsubscribed_at: sql<Date>`COALESCE(unsubscribed_at, now())`,
    })
    .where('unsubscribe_token_hash', '=', hashToken(token))
    .returning('id')
    .executeTakeFirst();
  return row ? 'unsubscribed' : null;
}

const MAX_URL_LENGTH = 2048;

/** Shape (https, no credentials, no fragment) and then the outbound guard: 400 on `url`. */
async function readWebhookUrl(context: SubscriptionContext, raw: string): Promise<string> {
  const errors = new FieldErrorCollector();
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {
    errors.add('url', 'must be an absolute https URL');
  }
  if (url) {
    if (url.protocol !== 'https:') errors.add('url', 'must use https');
    else if (url.username || url.password) errors.add('url', 'must not carry credentials');
    else if (url.hash) errors.add('url', 'must not have a fragment');
    else if (url.href.length > MAX_URL_LENGTH) {
      errors.add('url', `must be at most ${MAX_URL_LENGTH} characters`);
    }
  }
  errors.throwIfAny(400);
  const href = (url as URL).href;
  try {
    await checkUrl(href, outboundPolicy(context.config, 'webhooks', null), ['https:']);
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    errors.add('url', error.message);
    errors.throwIfAny(400, 'The target address is not allowed.');
  }
  return href;
}

export interface WebhookSubscription {
  subscriptionId: string;
  url: string;
  /** The Standard Webhooks signing secret: shown once. */
  secret: string;
  /** Ends the subscription: shown once. */
  unsubscribeToken: string;
  unsubscribeUrl: string;
  createdAtUtc: string;
}

/**
 * A new webhook subscription (each call its own, with its own secret: answering with an
 * existing subscription's secret would hand it to whoever knows the URL).
 */
export async function subscribeWebhook(
  system: Kysely<DB>,
  context: SubscriptionContext,
  rawUrl: string,
): Promise<WebhookSubscription> {
  const url = await readWebhookUrl(context, rawUrl);
  const secret = generateSigningSecret();
  const unsubscribeToken = newToken();
  const row = await system
    .insertInto('status_webhook_subscriptions')
    .values({
      id: newId(),
      url,
      secret_sealed: context.secretBox.seal(secret),
      unsubscribe_token_hash: hashToken(unsubscribeToken),
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  const base = context.config.statusMail.publicBaseUrl;
  return {
    subscriptionId: row.id,
    url,
    secret,
    unsubscribeToken,
    unsubscribeUrl: `${base}/status/webhooks/unsubscribe?token=${unsubscribeToken}`,
    createdAtUtc: row.created_at.toISOString(),
  };
}

/** Disables the subscription of an unsubscribe token and cancels what is pending; null: unknown. */
export async function unsubscribeWebhook(
  system: Kysely<DB>,
  token: string,
): Promise<{ subscriptionId: string } | null> {
  return system.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('status_webhook_subscriptions')
      .set({ status: 'disabled', disabled_at: sql<Date>`COALESCE(disabled_at, now())` })
      .where('unsubscribe_token_hash', '=', hashToken(token))
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    await cancelPendingDeliveries(trx, STATUS_WEBHOOK_TARGET, row.id, 'unsubscribed');
    return { subscriptionId: row.id };
  });
}

/**
 * The delivery module's view of status webhook subscribers (system-owned deliveries): a 410 or
 * a delivery out of attempts disables the subscription.
 */
export function statusWebhookTarget(secretBox: SecretBox): DeliveryTargetKind {
  return {
    load: async (db, targetId) => {
      const row = await db
        .selectFrom('status_webhook_subscriptions')
        .select(['url', 'secret_sealed', 'status'])
        .where('id', '=', targetId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        url: row.url,
        secret: secretBox.open(row.secret_sealed),
        active: row.status === 'active',
        outboundKind: 'webhooks',
      };
    },
    lock: async (db, targetId) =>
      (await db
        .selectFrom('status_webhook_subscriptions')
        .select('id')
        .where('id', '=', targetId)
        .forUpdate()
        .executeTakeFirst()) !== undefined,
    attempted: async (db, report) => {
      if (report.outcome !== 'gone' && !report.exhausted) return;
      await db
        .updateTable('status_webhook_subscriptions')
        .set({ status: 'disabled', disabled_at: sql<Date>`now()` })
        .where('id', '=', report.targetId)
        .where('status', '=', 'active')
        .execute();
      await cancelPendingDeliveries(db, STATUS_WEBHOOK_TARGET, report.targetId, 'disabled');
    },
  };
}

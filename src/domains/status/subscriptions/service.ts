import { createHash, randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../../../config';
import { FieldErrorCollector, ProblemError } from '../../../core/problem';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { checkUrl, OutboundRefusedError, outboundPolicy } from '../../../security/outbound-guard';
import type { SecretBox } from '../../../security/secret-box';
import { generateSigningSecret } from '../../outbound-deliveries/send';
import { cancelPendingDeliveries } from '../../outbound-deliveries/store';
import type { DeliveryTargetKind } from '../../outbound-deliveries/targets';
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
    const confirmToken = newToken();
    const tokens = pendingTokens(context, confirmToken);
    // A new address: concurrent first subscriptions of it meet on the unique key, where all but
    // one wait for the first to commit and then insert nothing (never a unique violation).
    const inserted = await trx
      .insertInto('status_email_subscriptions')
      .values({ id: newId(), email, ...tokens })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      await queueMail(trx, [confirmMail(context, email, confirmToken)]);
      return;
    }
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
    if (!existing || existing.state === 'confirmed') return;
    if (existing.state === 'pending' && existing.recentlySent) return;
    await trx
      .updateTable('status_email_subscriptions')
      .set(tokens)
      .where('id', '=', existing.id)
      .execute();
    await queueMail(trx, [confirmMail(context, email, confirmToken)]);
  });
}

/** A pending subscription's new tokens (a new confirm and unsubscribe token each time). */
function pendingTokens(context: SubscriptionContext, confirmToken: string) {
  const unsubscribeToken = newToken();
  return {
    state: 'pending' as const,
    confirm_token_hash: hashToken(confirmToken),
    unsubscribe_token_hash: hashToken(unsubscribeToken),
    unsubscribe_token_sealed: context.secretBox.seal(unsubscribeToken),
    confirm_sent_at: sql<Date>`now()`,
    confirmed_at: null,
    unsubscribed_at: null,
  };
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
    await checkUrl(href, outboundPolicy(context.config, 'status-webhooks', null), ['https:']);
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

/** New status webhook subscriptions one client may create in a day (docs/status.md). */
export const WEBHOOKS_PER_CLIENT_PER_DAY = 5;
const DAY_SECONDS = 86_400;

/**
 * The client a subscription is counted against: its IPv4 address, or the /64 of an IPv6 one
 * (one host usually holds a whole /64), hashed so no address is stored.
 */
export function clientKey(ip: string): string {
  let key = ip;
  try {
    const address = ipaddr.process(ip);
    key =
      address.kind() === 'ipv6'
        ? `${(address as ipaddr.IPv6).parts.slice(0, 4).join(':')}::/64`
        : address.toString();
  } catch {
    // Not an address (a test's fake socket): counted as given.
  }
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}

/** 429 with Retry-After once a client made its day's subscriptions (a creation rate). */
async function checkClientCap(trx: Kysely<DB>, client: string): Promise<void> {
  const recent = await trx
    .selectFrom('status_webhook_subscriptions')
    .select([
      sql<number>`count(*)::int`.as('made'),
      sql<number>`EXTRACT(EPOCH FROM min(created_at) + make_interval(secs => ${DAY_SECONDS}) - now())::float8`.as(
        'freeInSeconds',
      ),
    ])
    .where('client_key', '=', client)
    .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${DAY_SECONDS})`)
    .executeTakeFirstOrThrow();
  if (recent.made < WEBHOOKS_PER_CLIENT_PER_DAY) return;
  const seconds = Math.max(1, Math.ceil(recent.freeInSeconds));
  throw new ProblemError(
    429,
    `At most ${WEBHOOKS_PER_CLIENT_PER_DAY} status webhook subscriptions a day per client; retry in ${seconds} seconds.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/**
 * A new webhook subscription, with its own secret (answering with an existing subscription's
 * secret would hand it to whoever knows the URL). One URL has one active subscription: a new
 * one replaces the one before (whose deliveries stop), so subscribing a URL many times never
 * multiplies what it receives. A client creates at most WEBHOOKS_PER_CLIENT_PER_DAY a day.
 */
export async function subscribeWebhook(
  system: Kysely<DB>,
  context: SubscriptionContext,
  rawUrl: string,
  clientIp: string,
): Promise<WebhookSubscription> {
  const url = await readWebhookUrl(context, rawUrl);
  const client = clientKey(clientIp);
  const secret = generateSigningSecret();
  const unsubscribeToken = newToken();
  const row = await system.transaction().execute(async (trx) => {
    // One client's subscriptions, then one URL's, in this order: the cap and the one active
    // subscription per URL hold under concurrent requests.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`driftwatch.status.webhook-client:${client}`}))`.execute(
      trx,
    );
    await checkClientCap(trx, client);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`driftwatch.status.webhook-url:${url}`}))`.execute(
      trx,
    );
    const replaced = await trx
      .updateTable('status_webhook_subscriptions')
      .set({ status: 'disabled', disabled_at: sql<Date>`now()` })
      .where('url', '=', url)
      .where('status', '=', 'active')
      .returning('id')
      .execute();
    for (const old of replaced) {
      await cancelPendingDeliveries(trx, STATUS_WEBHOOK_TARGET, old.id, 'replaced');
    }
    return trx
      .insertInto('status_webhook_subscriptions')
      .values({
        id: newId(),
        url,
        secret_sealed: context.secretBox.seal(secret),
        unsubscribe_token_hash: hashToken(unsubscribeToken),
        client_key: client,
      })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
  });
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
        outboundKind: 'status-webhooks',
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

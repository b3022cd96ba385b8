import { type Kysely, sql } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { StatusMailConfig } from '../../../config';
import { iso } from '../../../core/iso-time';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { retryDelayMs } from '../../outbound-deliveries/schedule';

/**
 * Status subscriber mail (docs/status.md#e-mail): written to `status_email_outbox` in the
 * transaction of the change that causes it, sent later by the mail job over SMTP (nodemailer)
 * with retries. Without SMTP_URL nothing is sent: the outbox is what operators read.
 */
export interface OutgoingMail {
  recipient: string;
  subject: string;
  body: string;
  /** The unsubscribe URL (List-Unsubscribe header); null for the confirmation mail. */
  listUnsubscribe: string | null;
}

/** Control characters out of header text (subjects come from operators' titles). */
export const headerText = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200);

export async function queueMail(db: Kysely<DB>, mails: readonly OutgoingMail[]): Promise<void> {
  if (mails.length === 0) return;
  await db
    .insertInto('status_email_outbox')
    .values(
      mails.map((mail) => ({
        id: newId(),
        recipient: mail.recipient,
        subject: headerText(mail.subject),
        body: mail.body,
        list_unsubscribe: mail.listUnsubscribe,
        next_attempt_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

export interface MailSender {
  send: (mail: OutgoingMail) => Promise<void>;
  close: () => void;
}

/**
 * The SMTP sender of the configured server; null without SMTP_URL. nodemailer is loaded and its
 * transport made on the first message, not at start (docs/operations.md#memory).
 */
export function smtpSender(config: StatusMailConfig): MailSender | null {
  const smtpUrl = config.smtpUrl;
  if (!smtpUrl) return null;
  let transport: Transporter | null = null;
  let closed = false;
  return {
    send: async (mail) => {
      if (!transport) {
        const { createTransport } = await import('nodemailer');
        if (closed) throw new Error('the mail sender is closed');
        transport = createTransport(smtpUrl);
      }
      await transport.sendMail({
        from: config.from,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body,
        ...(mail.listUnsubscribe
          ? {
              headers: {
                'List-Unsubscribe': `<${mail.listUnsubscribe}>`,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              },
            }
          : {}),
      });
    },
    close: () => {
      closed = true;
      transport?.close();
    },
  };
}

/**
 * The confirm and unsubscribe tokens of a mail's links, replaced once the mail is out of the
 * outbox's hands (sent or given up): the recipient has them, and the outbox operators read
 * must not hand out a working link to someone else's subscription.
 */
export const redactTokens = (text: string) =>
  text.replace(/([?&]token=)[A-Za-z0-9_-]+/g, '$1[redacted]');

/** How long a claimed message is held for one attempt before another worker may take it. */
const MAIL_LEASE_MS = 120_000;

async function claimDueMail(system: Kysely<DB>, limit: number) {
  return system
    .updateTable('status_email_outbox')
    .set({
      attempt_count: sql`attempt_count + 1`,
      lease_until: sql<Date>`now() + ${`${MAIL_LEASE_MS} milliseconds`}::interval`,
    })
    .where(
      'id',
      'in',
      system
        .selectFrom('status_email_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .where((eb) =>
          eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', sql<Date>`now()`)]),
        )
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** A 5xx answer from the SMTP server: this message will never be accepted. */
function permanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500;
}

function errorText(error: unknown): string {
  const code = (error as { responseCode?: unknown }).responseCode;
  if (typeof code === 'number') return `the SMTP server answered ${code}`;
  return 'the SMTP server could not be reached';
}

/**
 * One pass of the mail job: claims due messages, sends each, records the outcome (sent; a
 * retry after the backoff; given up after a 5xx or the last attempt). Returns how many it tried.
 */
export async function sendDueMail(
  system: Kysely<DB>,
  config: StatusMailConfig,
  sender: MailSender | null,
  limit = 50,
): Promise<number> {
  if (!sender) return 0;
  const claimed = await claimDueMail(system, limit);
  // In the order they were written (UPDATE … RETURNING keeps none).
  claimed.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1));
  for (const row of claimed) {
    const mail = {
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      listUnsubscribe: row.list_unsubscribe,
    };
    try {
      await sender.send(mail);
      await system
        .updateTable('status_email_outbox')
        .set({
          sent_at: sql<Date>`now()`,
          lease_until: null,
          last_error: null,
          body: redactTokens(row.body),
          list_unsubscribe: null,
        })
        .where('id', '=', row.id)
        .execute();
    } catch (error) {
      const givenUp = permanent(error) || row.attempt_count >= config.maxAttempts;
      const retryAt = new Date(Date.now() + retryDelayMs(config, row.attempt_count));
      await system
        .updateTable('status_email_outbox')
        .set({
          lease_until: null,
          last_error: errorText(error),
          next_attempt_at: givenUp ? null : retryAt,
          failed_at: givenUp ? sql<Date>`now()` : null,
          ...(givenUp ? { body: redactTokens(row.body), list_unsubscribe: null } : {}),
        })
        .where('id', '=', row.id)
        .execute();
    }
  }
  return claimed.length;
}

/**
 * The newest outbox messages, for operators (docs/status.md#operators). Pending ones keep their
 * links (without SMTP the outbox is how mail gets out); sent and failed ones show none.
 */
export async function listOutbox(system: Kysely<DB>, limit: number) {
  const rows = await system
    .selectFrom('status_email_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    messageId: row.id,
    recipient: row.recipient,
    subject: row.subject,
    body: row.sent_at || row.failed_at ? redactTokens(row.body) : row.body,
    state: row.sent_at ? 'sent' : row.failed_at ? 'failed' : 'pending',
    attempts: row.attempt_count,
    lastError: row.last_error,
    createdAtUtc: row.created_at.toISOString(),
    sentAtUtc: iso(row.sent_at),
  }));
}

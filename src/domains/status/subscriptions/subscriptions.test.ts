import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../../test/support/eventually';
import { type SmtpSink, startSmtpSink } from '../../../../test/support/smtp-sink';
import { createTestApp, TEST_OUTBOUND_ENV, type TestApp } from '../../../../test/support/test-app';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../../test/support/webhook-receiver';
import { outboundDeliveries } from '../../../background-jobs';
import { loadConfig } from '../../../config';
import { withTenant } from '../../../db/tenant-scope';
import { dispatchDueDeliveries } from '../../outbound-deliveries/attempt';
import { type MailSender, sendDueMail, smtpSender } from './mail';
import { PUBLIC_BODY_LIMIT, SUBSCRIBE_MESSAGE } from './routes';
import { WEBHOOKS_PER_CLIENT_PER_DAY } from './service';

/**
 * Status subscriptions (docs/status.md#subscriptions), both databases: e-mail with double
 * opt-in received by a real SMTP server on 127.0.0.1 (smtp-server, read with mailparser) and
 * its links followed; webhooks delivered signed to the local receiver and verified.
 */
const OPERATOR_TOKEN = 'operator-token-for-subscription-tests';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const BASE = 'http://status.driftwatch.test';
const LOOPBACK = '127.0.0.0/8,::1/128';

let t: TestApp;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let sender: MailSender;

beforeAll(async () => {
  smtp = await startSmtpSink();
  receiver = await startWebhookReceiver();
  t = await createTestApp({
    operatorToken: OPERATOR_TOKEN,
    ...receiverConfig(receiver, { maxAttempts: 3 }),
    // Status webhooks have their own allow-list (OUTBOUND_ALLOW_STATUS_WEBHOOK_CIDRS).
    outbound: loadConfig({ ...TEST_OUTBOUND_ENV, OUTBOUND_ALLOW_STATUS_WEBHOOK_CIDRS: LOOPBACK })
      .outbound,
    statusMail: {
      ...loadConfig({}).statusMail,
      smtpUrl: smtp.url,
      publicBaseUrl: BASE,
      retryBaseMs: 1,
      retryMaxDelayMs: 5,
      maxAttempts: 3,
    },
  });
  const built = smtpSender(t.config.statusMail);
  if (!built) throw new Error('SMTP sender expected');
  sender = built;
}, 180_000);

afterAll(async () => {
  sender?.close();
  await t?.close();
  await smtp?.close();
  await receiver?.close();
});

beforeEach(() => {
  smtp.received.length = 0;
  receiver.received.length = 0;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the mail job until the outbox has nothing due (retries are milliseconds here). */
async function deliverMail(): Promise<ParsedMail[]> {
  for (let round = 0; round < 20; round++) {
    await sendDueMail(t.database.system, t.config.statusMail, sender);
    const due = await t.database.system
      .selectFrom('status_email_outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .where('failed_at', 'is', null)
      .execute();
    if (due.length === 0) break;
    await sleep(10);
  }
  return [...smtp.received];
}

const subscribe = (email: unknown) =>
  t.app.inject({ method: 'POST', url: '/status/subscribe', payload: { email } });

/** The path and query of a link in a mail that starts with the configured base URL. */
function linkIn(text: string, path: string): string {
  const match = new RegExp(`${BASE}(${path}\\?token=[A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}

const mailTo = (mails: ParsedMail[], address: string) =>
  mails.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === address);

async function subscribeAndConfirm(email: string): Promise<void> {
  expect((await subscribe(email)).statusCode).toBe(200);
  const [mail] = mailTo(await deliverMail(), email);
  const confirmed = await t.app.inject({
    url: linkIn(mail?.text ?? '', '/status/subscribe/confirm'),
  });
  expect(confirmed.statusCode).toBe(200);
  smtp.received.length = 0;
}

const createIncident = (title: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/status/incidents',
    headers: operator,
    payload: { title, impact: 'minor', body: 'Looking into it.', components: ['api'] },
  });

describe('e-mail subscriptions', () => {
  it('refuses what is not an e-mail address with a 400 problem naming the field', async () => {
    for (const email of [
      'not-an-address',
      'a@b',
      '',
      'two@@example.com',
      'x@example.com\r\nBcc: y@example.com',
    ]) {
      const response = await subscribe(email);
      expect(response.statusCode, email).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors.email).toBeDefined();
    }
    expect((await subscribe(42)).statusCode).toBe(400);
    const missing = await t.app.inject({ method: 'POST', url: '/status/subscribe', payload: {} });
    expect(missing.statusCode).toBe(400);
  });

  it('mails a confirmation link that works, twice, and counts against the IP bucket', async () => {
    const response = await subscribe('Ada@Example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'pending-confirmation', message: SUBSCRIBE_MESSAGE });
    expect(response.headers['ratelimit-limit']).toBeDefined();
    const mails = mailTo(await deliverMail(), 'ada@example.com');
    expect(mails).toHaveLength(1);
    const mail = mails[0] as ParsedMail;
    expect(mail.subject).toBe('Confirm your Driftwatch status subscription');
    expect(mail.from?.text).toContain('status@localhost');
    const link = linkIn(mail.text ?? '', '/status/subscribe/confirm');
    const first = await t.app.inject({ url: link });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'confirmed' });
    const again = await t.app.inject({ url: link });
    expect(again.json()).toEqual({ status: 'confirmed' });
    const row = await t.database.system
      .selectFrom('status_email_subscriptions')
      .selectAll()
      .where('email', '=', 'ada@example.com')
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('confirmed');
    // Only the hash of the token is stored.
    const token = new URL(link, BASE).searchParams.get('token') ?? '';
    expect(row.confirm_token_hash?.toString('base64url')).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('answers a second subscription of the same address the same and keeps one row', async () => {
    const first = await subscribe('grace@example.com');
    await deliverMail();
    const second = await subscribe('  GRACE@example.com ');
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.body).toBe(first.body);
    const rows = await t.database.system
      .selectFrom('status_email_subscriptions')
      .select('id')
      .where('email', '=', 'grace@example.com')
      .execute();
    expect(rows).toHaveLength(1);
    // A pending address is not mailed again within the resend interval (no mailbombing).
    expect(mailTo(await deliverMail(), 'grace@example.com')).toHaveLength(1);
    // A confirmed address: the same answer, no mail at all.
    await t.app.inject({ url: linkIn(smtp.received[0]?.text ?? '', '/status/subscribe/confirm') });
    smtp.received.length = 0;
    const confirmed = await subscribe('grace@example.com');
    expect(confirmed.body).toBe(first.body);
    expect(await deliverMail()).toHaveLength(0);
  });

  it('answers concurrent first subscriptions of one address alike, with one row and one mail', async () => {
    for (let round = 0; round < 10; round++) {
      const email = `race-${round}@example.com`;
      // Each round from its own address: forty requests would pass one IP's rate limit.
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() =>
          t.app.inject({
            method: 'POST',
            url: '/status/subscribe',
            payload: { email },
            remoteAddress: `192.0.2.${round + 1}`,
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      const rows = await t.database.system
        .selectFrom('status_email_subscriptions')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(rows).toHaveLength(1);
      const queued = await t.database.system
        .selectFrom('status_email_outbox')
        .select('id')
        .where('recipient', '=', email)
        .execute();
      expect(queued).toHaveLength(1);
    }
    await deliverMail();
  });

  it('refuses a body over the public limit with 413 before reading it', async () => {
    const big = { email: `${'a'.repeat(PUBLIC_BODY_LIMIT)}@example.com` };
    const response = await t.app.inject({ method: 'POST', url: '/status/subscribe', payload: big });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const hook = await t.app.inject({
      method: 'POST',
      url: '/status/webhooks',
      payload: { url: `https://example.com/${'a'.repeat(PUBLIC_BODY_LIMIT)}` },
    });
    expect(hook.statusCode).toBe(413);
  });

  it('answers an unknown or missing token with 404 and 400', async () => {
    for (const url of [
      '/status/subscribe/confirm?token=unknown-token',
      '/status/unsubscribe?token=unknown-token',
    ]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    for (const url of ['/status/subscribe/confirm', '/status/unsubscribe?token=']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(400);
    }
  });

  it('mails every incident change with an unsubscribe link and header that work', async () => {
    await subscribeAndConfirm('linus@example.com');
    const created = await createIncident('Slow API');
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const update = (status: string, body: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/status/incidents/${id}/updates`,
        headers: operator,
        payload: { status, body },
      });
    expect((await update('identified', 'A slow query.')).statusCode).toBe(201);
    expect((await update('resolved', 'Fixed.')).statusCode).toBe(201);
    const mails = mailTo(await deliverMail(), 'linus@example.com');
    expect(mails.map((mail) => mail.subject)).toEqual([
      '[Driftwatch status] New incident: Slow API',
      '[Driftwatch status] Incident update: Slow API',
      '[Driftwatch status] Resolved: Slow API',
    ]);
    const last = mails[2] as ParsedMail;
    expect(last.text).toContain('Fixed.');
    expect(last.text).toContain(`${BASE}/status#incident-${id}`);
    const unsubscribe = linkIn(last.text ?? '', '/status/unsubscribe');
    const header = (name: string) =>
      last.headerLines
        .find((line) => line.key === name)
        ?.line.slice(name.length + 1)
        .trim();
    expect(header('list-unsubscribe')).toBe(`<${BASE}${unsubscribe}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const ended = await t.app.inject({ url: unsubscribe });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ status: 'unsubscribed' });
    expect((await t.app.inject({ url: unsubscribe })).json()).toEqual({ status: 'unsubscribed' });
    smtp.received.length = 0;
    await createIncident('After unsubscribing');
    expect(mailTo(await deliverMail(), 'linus@example.com')).toHaveLength(0);
  });

  it('takes the one-click unsubscribe POST of RFC 8058', async () => {
    await subscribeAndConfirm('margaret@example.com');
    await createIncident('One click');
    const [mail] = mailTo(await deliverMail(), 'margaret@example.com');
    const response = await t.app.inject({
      method: 'POST',
      url: linkIn(mail?.text ?? '', '/status/unsubscribe'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(response.statusCode).toBe(200);
    const row = await t.database.system
      .selectFrom('status_email_subscriptions')
      .select('state')
      .where('email', '=', 'margaret@example.com')
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('unsubscribed');
  });

  it('mails a component state change (an operator override)', async () => {
    await subscribeAndConfirm('barbara@example.com');
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/status/components/database/override',
      headers: operator,
      payload: { state: 'maintenance', reason: 'Upgrade to PostgreSQL 17' },
    });
    expect(response.statusCode).toBe(204);
    const [mail] = mailTo(await deliverMail(), 'barbara@example.com');
    expect(mail?.subject).toBe('[Driftwatch status] Database: maintenance');
    expect(mail?.text).toContain('Upgrade to PostgreSQL 17');
    expect(mail?.text).toContain(`${BASE}/status/unsubscribe?token=`);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/status/components/database/override',
      headers: operator,
    });
    const [back] = mailTo(await deliverMail(), 'barbara@example.com').slice(1);
    expect(back?.subject).toMatch(/^\[Driftwatch status\] Database: /);
  });

  it('retries a message the SMTP server refuses for now, and lists the outbox to operators', async () => {
    smtp.rejectNext = 1;
    await subscribe('retry@example.com');
    expect(mailTo(await deliverMail(), 'retry@example.com')).toHaveLength(1);
    const row = await t.database.system
      .selectFrom('status_email_outbox')
      .selectAll()
      .where('recipient', '=', 'retry@example.com')
      .executeTakeFirstOrThrow();
    expect(row.attempt_count).toBe(2);
    expect(row.sent_at).not.toBeNull();
    const outbox = await t.app.inject({ url: '/api/v1/status/outbox', headers: operator });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json().items[0]).toMatchObject({ recipient: 'retry@example.com', state: 'sent' });
    expect((await t.app.inject({ url: '/api/v1/status/outbox' })).statusCode).toBe(401);
  });

  it('keeps no working token in the outbox once a mail is sent', async () => {
    await subscribe('redact@example.com');
    const [confirmMail] = mailTo(await deliverMail(), 'redact@example.com');
    const confirmLink = linkIn(confirmMail?.text ?? '', '/status/subscribe/confirm');
    expect((await t.app.inject({ url: confirmLink })).statusCode).toBe(200);
    smtp.received.length = 0;
    await createIncident('Redacted links');
    const [notice] = mailTo(await deliverMail(), 'redact@example.com');
    const unsubscribeLink = linkIn(notice?.text ?? '', '/status/unsubscribe');
    const tokens = [confirmLink, unsubscribeLink].map(
      (link) => new URL(link, BASE).searchParams.get('token') ?? '',
    );
    const outbox = await t.app.inject({ url: '/api/v1/status/outbox', headers: operator });
    const mine = outbox
      .json()
      .items.filter((item: { recipient: string }) => item.recipient === 'redact@example.com');
    expect(mine).toHaveLength(2);
    for (const item of mine) {
      expect(item.state).toBe('sent');
      expect(item.body).toContain('token=[redacted]');
      for (const token of tokens) expect(item.body).not.toContain(token);
    }
    const rows = await t.database.system
      .selectFrom('status_email_outbox')
      .select(['body', 'list_unsubscribe'])
      .where('recipient', '=', 'redact@example.com')
      .execute();
    for (const row of rows) {
      for (const token of tokens) expect(JSON.stringify(row)).not.toContain(token);
    }
    // The recipient's links keep working.
    expect((await t.app.inject({ url: unsubscribeLink })).json()).toEqual({
      status: 'unsubscribed',
    });
    // A message not sent yet keeps its link: without SMTP the outbox is how it gets out.
    await subscribe('not-yet@example.com');
    const pending = (await t.app.inject({ url: '/api/v1/status/outbox', headers: operator }))
      .json()
      .items.find((item: { recipient: string }) => item.recipient === 'not-yet@example.com');
    expect(pending.state).toBe('pending');
    expect(pending.body).toMatch(/token=[A-Za-z0-9_-]{20,}/);
    await deliverMail();
  });

  it('sends nothing in the request: the mail waits in the outbox for the job', async () => {
    await subscribe('later@example.com');
    expect(smtp.received).toHaveLength(0);
    const row = await t.database.system
      .selectFrom('status_email_outbox')
      .select(['sent_at', 'attempt_count'])
      .where('recipient', '=', 'later@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sent_at: null, attempt_count: 0 });
    await deliverMail();
  });
});

describe('the subscribe form without JavaScript', () => {
  it('shows the form on the page and answers its post with HTML', async () => {
    const page = await t.app.inject({ url: '/status' });
    expect(page.body).toContain('<form method="post" action="/status/subscribe">');
    const post = (body: string) =>
      t.app.inject({
        method: 'POST',
        url: '/status/subscribe',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
    const ok = await post('email=form%40example.com');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/html');
    expect(ok.body).toContain('Check your inbox');
    const bad = await post('email=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('text/html');
    const [mail] = mailTo(await deliverMail(), 'form@example.com');
    const link = linkIn(mail?.text ?? '', '/status/subscribe/confirm');
    const browser = await t.app.inject({ url: link, headers: { accept: 'text/html,*/*' } });
    expect(browser.statusCode).toBe(200);
    expect(browser.headers['content-type']).toContain('text/html');
    expect(browser.body).toContain('Subscription confirmed');
    const unknown = await t.app.inject({
      url: '/status/unsubscribe?token=nope',
      headers: { accept: 'text/html' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
  });
});

describe('webhook subscriptions', () => {
  const subscribeHook = (url: unknown) =>
    t.app.inject({ method: 'POST', url: '/status/webhooks', payload: { url } });

  it('refuses bad and internal targets with a 400 problem on url', async () => {
    for (const url of [
      'not a url',
      `http://127.0.0.1:${receiver.port}/hooks`,
      'https://user:pw@example.com/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'https://[::ffff:10.0.0.1]/hook',
      'https://0x0a000001/hook',
    ]) {
      const response = await subscribeHook(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors.url, url).toBeDefined();
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/status/webhooks', payload: {} })).statusCode,
    ).toBe(400);
  });

  it('delivers signed notifications, none after unsubscribing; 404 for an unknown token', async () => {
    const created = await subscribeHook(receiver.url);
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.unsubscribeUrl).toBe(
      `${BASE}/status/webhooks/unsubscribe?token=${hook.unsubscribeToken}`,
    );
    const incident = await createIncident('Webhook incident');
    const context = outboundDeliveries(t.jobDeps);
    await dispatchDueDeliveries(context);
    expect(receiver.received).toHaveLength(1);
    const envelope = verifyDelivery(hook.secret, receiver.received[0] as never);
    expect(envelope.type).toBe('status.incident.created');
    expect(envelope.data).toMatchObject({
      incidentId: incident.json().id,
      title: 'Webhook incident',
      status: 'investigating',
      update: { status: 'investigating', body: 'Looking into it.' },
      url: `${BASE}/status#incident-${incident.json().id}`,
    });
    // System-owned: no tenant scope sees these deliveries.
    const tenant = await t.createTenant();
    const visible = await withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('outbound_deliveries').select('id').execute(),
    );
    expect(visible).toEqual([]);

    const unsubscribe = new URL(hook.unsubscribeUrl).pathname + new URL(hook.unsubscribeUrl).search;
    const ended = await t.app.inject({ url: unsubscribe });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ status: 'unsubscribed' });
    receiver.received.length = 0;
    await createIncident('After the webhook left');
    await dispatchDueDeliveries(context);
    expect(receiver.received).toHaveLength(0);
    const unknown = await t.app.inject({ url: '/status/webhooks/unsubscribe?token=unknown' });
    expect(unknown.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/status/webhooks/unsubscribe' })).statusCode).toBe(400);
  });

  it('keeps one subscription per URL and caps what one client creates', async () => {
    const client = '198.51.100.23';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/status/webhooks',
          payload: { url: receiver.url },
          remoteAddress: client,
        }),
      ),
    );
    const created = answers.filter((answer) => answer.statusCode === 201);
    expect(created).toHaveLength(WEBHOOKS_PER_CLIENT_PER_DAY);
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const active = await t.database.system
      .selectFrom('status_webhook_subscriptions')
      .select('id')
      .where('url', '=', receiver.url)
      .where('status', '=', 'active')
      .execute();
    expect(active).toHaveLength(1);
    // Another client is not held by the first one's cap.
    const other = await t.app.inject({
      method: 'POST',
      url: '/status/webhooks',
      payload: { url: receiver.url },
      remoteAddress: '2001:db8:aa::1',
    });
    expect(other.statusCode).toBe(201);
    const current = other.json();

    await createIncident('One POST per URL');
    const context = outboundDeliveries(t.jobDeps);
    await dispatchDueDeliveries(context);
    await sleep(50);
    await dispatchDueDeliveries(context);
    expect(receiver.received).toHaveLength(1);
    // Signed with the newest subscription's secret: subscribing again replaced the others.
    expect(verifyDelivery(current.secret, receiver.received[0] as never).type).toBe(
      'status.incident.created',
    );
    await t.app.inject({
      url: new URL(current.unsubscribeUrl).pathname + new URL(current.unsubscribeUrl).search,
    });
  });

  it('retries a failing receiver and disables the subscription on 410', async () => {
    const hook = (await subscribeHook(receiver.url)).json();
    receiver.answers = [500, 410];
    await createIncident('Flaky receiver');
    const context = outboundDeliveries(t.jobDeps);
    await eventually(
      async () => {
        await dispatchDueDeliveries(context);
        return receiver.received.length >= 2;
      },
      { what: 'two attempts at the receiver', timeoutMs: 5_000, intervalMs: 30 },
    );
    expect(receiver.received.map((request) => request.answered)).toEqual([500, 410]);
    const row = await t.database.system
      .selectFrom('status_webhook_subscriptions')
      .select('status')
      .where('id', '=', hook.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('disabled');
  });
});

describe('the status webhooks allow-list', () => {
  it("is not OUTBOUND_ALLOW_WEBHOOK_CIDRS, which is for tenants' integrations", async () => {
    // The default test settings open loopback to webhook integrations, not to status webhooks.
    const plain = await createTestApp({ ...receiverConfig(receiver) });
    try {
      expect(plain.config.outbound.allow.webhooks).toContain('127.0.0.0/8');
      const response = await plain.app.inject({
        method: 'POST',
        url: '/status/webhooks',
        payload: { url: receiver.url },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.url).toBeDefined();
    } finally {
      await plain.close();
    }
  });
});

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  guardedFetch,
  type OutboundPolicy,
  OutboundRefusedError,
} from '../../security/outbound-guard';
import type { AttemptOutcome } from './tables';

/**
 * One signed POST to a user-given https URL (docs/integrations.md#signatures): the Standard
 * Webhooks headers (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256>`
 * signed with the standardwebhooks package), through the outbound guard — the name is resolved
 * and checked now and the connection pinned to the checked address; no redirect is followed.
 * Never throws: every failure is an outcome.
 */
export interface SignedMessage {
  /** webhook-id: the delivery's id, the same on every attempt. */
  id: string;
  type: string;
  /** When the event happened (the envelope's `timestamp`). */
  occurredAt: Date;
  data: Record<string, unknown>;
}

export interface SendSettings {
  policy: OutboundPolicy;
  timeoutMs: number;
  ca?: string | Buffer;
}

export interface SendResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** What went wrong, in a few words (no addresses: the delivery log is shown to the tenant). */
  error: string | null;
  startedAt: Date;
  durationMs: number;
}

/** Standard Webhooks secrets: `whsec_` and 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The JSON body of every delivery: the Standard Webhooks envelope. */
export function envelopeOf(message: SignedMessage): string {
  return JSON.stringify({
    type: message.type,
    timestamp: message.occurredAt.toISOString(),
    data: message.data,
  });
}

export function signedHeaders(
  secret: string,
  message: SignedMessage,
  body: string,
  now: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Driftwatch-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(message.id, now, body),
  };
}

function outcomeOf(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return 'succeeded';
  return status === 410 ? 'gone' : 'failed';
}

function errorOf(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return 'redirects are not followed';
  return status === 410 ? 'the receiver answered 410 Gone' : `the receiver answered ${status}`;
}

function failureText(error: unknown): string {
  if (error instanceof OutboundRefusedError) return error.message;
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  return 'the receiver could not be reached';
}

export async function sendSigned(
  url: string,
  secret: string,
  message: SignedMessage,
  settings: SendSettings,
): Promise<SendResult> {
  const startedAt = new Date();
  const body = envelopeOf(message);
  const elapsed = () => Date.now() - startedAt.getTime();
  try {
    const response = await guardedFetch(
      url,
      {
        method: 'POST',
        headers: signedHeaders(secret, message, body, startedAt),
        body,
        signal: AbortSignal.timeout(settings.timeoutMs),
      },
      {
        policy: settings.policy,
        protocols: ['https:'],
        maxRedirects: 0,
        connectTimeoutMs: settings.timeoutMs,
        ...(settings.ca ? { ca: settings.ca } : {}),
      },
    );
    // The body is not read: receivers should answer quickly, and what they say is not stored.
    await response.body?.cancel().catch(() => {});
    const status = response.status;
    return {
      outcome: outcomeOf(status),
      statusCode: status,
      error: errorOf(status),
      startedAt,
      durationMs: elapsed(),
    };
  } catch (error) {
    return {
      outcome: 'failed',
      statusCode: null,
      error: failureText(error),
      startedAt,
      durationMs: elapsed(),
    };
  }
}

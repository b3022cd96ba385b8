import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { badRequest, ProblemError } from '../../core/problem';
import type { Database } from '../../db/connection';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { textErrorsIn } from '../../http/edge-rules';
import type { SecretBox } from '../../security/secret-box';
import { insertAuditEntry } from '../audit-log/store';
import { queueScan } from '../scans/service';
import { hashWebhookToken } from '../source-control/service';
import {
  type CandidateConnection,
  candidatesByTokenHash,
  candidatesFor,
  updateConnectionStatus,
} from '../source-control/store';
import {
  type DeliveryFacts,
  type DeliveryFlavor,
  deliveryFacts,
  type Json,
  PUSH_EVENTS,
  parseJsonObject,
} from './payloads';

/**
 * Push ingest (Authentication section, delivery table). Order matters: the identity is checked
 * before anything is stored (401), then the event type (400), then the delivery is applied in
 * the tenant of every connection it authenticated as, and acknowledged with 202.
 */
export type IngestProvider = 'scm-a' | 'scm-b' | 'scm-c' | 'scm-d';

export interface IngestDeps {
  database: Database;
  secretBox: SecretBox;
  config: Config;
}

export interface DeliveryRequest {
  provider: IngestProvider;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  ip: string;
  correlationId: string;
}

export type DeliveryResult =
  | 'scan_queued'
  | 'scan_already_queued'
  | 'other_branch'
  | 'branch_deleted'
  | 'unknown_repository'
  | 'connection_inactive'
  | 'connection_updated'
  | 'event_ignored';

export interface IngestOutcome {
  event: string | null;
  scansQueued: number;
}

const rejected = (detail: string) => new ProblemError(401, detail);

function header(headers: DeliveryRequest['headers'], name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.length > 0 ? first : null;
}

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function hmacSignature(secret: string, raw: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

const SIGNATURE = /^sha256=[0-9a-fA-F]{64}$/;

interface Identity {
  flavor: DeliveryFlavor;
  kind: 'hmac' | 'token';
  value: string;
}

/** Reads the identity header the table names for the provider; null when absent or malformed. */
function identityOf(
  provider: IngestProvider,
  headers: DeliveryRequest['headers'],
): Identity | null {
  if (provider === 'scm-a') {
    const signature = header(headers, 'x-hub-signature-256');
    return signature && SIGNATURE.test(signature)
      ? { flavor: 'scm-a', kind: 'hmac', value: signature.toLowerCase() }
      : null;
  }
  if (provider === 'scm-b') {
    const token = header(headers, 'x-scm-b-token');
    return token ? { flavor: 'scm-b', kind: 'token', value: token } : null;
  }
  const authorization = header(headers, 'authorization');
  if (provider === 'scm-c') {
    const basic = /^Basic ([A-Za-z0-9+/=]{1,4096})$/.exec(authorization ?? '')?.[1];
    if (!basic) return null;
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const password = colon === -1 ? '' : decoded.slice(colon + 1);
    return password ? { flavor: 'scm-c', kind: 'token', value: password } : null;
  }
  const signature = header(headers, 'x-hub-signature');
  if (signature) {
    return SIGNATURE.test(signature)
      ? { flavor: 'scm-d-cloud', kind: 'hmac', value: signature.toLowerCase() }
      : null;
  }
  const token = /^Bearer (\S{1,4096})$/.exec(authorization ?? '')?.[1];
  return token ? { flavor: 'scm-d-dc', kind: 'token', value: token } : null;
}

function eventOf(flavor: DeliveryFlavor, headers: DeliveryRequest['headers'], body: unknown) {
  switch (flavor) {
    case 'scm-a':
      return header(headers, 'x-scm-a-event');
    case 'scm-b':
      return header(headers, 'x-scm-b-event');
    case 'scm-c': {
      // No event header is stated for scm-c: the event type travels in the payload.
      const type = (body as { eventType?: unknown } | null)?.eventType;
      return typeof type === 'string' ? type : null;
    }
    default:
      return header(headers, 'x-event-key');
  }
}

function openSecret(secretBox: SecretBox, sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return secretBox.open(sealed);
  } catch {
    return null;
  }
}

/** The connections (across tenants) whose secret the delivery proves it knows. */
async function authenticate(
  deps: IngestDeps,
  identity: Identity,
  raw: Buffer,
  readFacts: () => DeliveryFacts | null,
): Promise<{ connections: CandidateConnection[]; appSigned: boolean }> {
  const system = deps.database.system;
  const provider = identity.flavor.startsWith('scm-d')
    ? 'scm-d'
    : (identity.flavor as IngestProvider);
  if (identity.kind === 'token') {
    const candidates = await candidatesByTokenHash(
      system,
      provider,
      hashWebhookToken(identity.value),
    );
    const connections = candidates.filter((candidate) => {
      const secret = openSecret(deps.secretBox, candidate.webhook_secret_sealed);
      return secret !== null && safeEqual(secret, identity.value);
    });
    return { connections, appSigned: false };
  }
  const appSecret = provider === 'scm-a' ? deps.config.sources.scmAWebhookSecret : null;
  const appSigned = appSecret !== null && safeEqual(hmacSignature(appSecret, raw), identity.value);
  // Signed deliveries name their account in the body: the JSON is read (JSON.parse, linear in
  // the body) only to find whose secrets to check it against.
  const facts = readFacts();
  if (!facts) return { connections: [], appSigned };
  // A delivery that names its account (installation, workspace) is that account's only; the
  // repository id finds candidates only for deliveries without one (repository-level hooks).
  const candidates = await candidatesFor(
    system,
    provider,
    facts.accountIds,
    facts.accountIds.length > 0 ? [] : facts.repositoryIds,
  );
  const connections = candidates.filter((candidate) => {
    const own = openSecret(deps.secretBox, candidate.webhook_secret_sealed);
    if (own !== null) return safeEqual(hmacSignature(own, raw), identity.value);
    return appSigned;
  });
  return { connections, appSigned };
}

interface TenantOutcome {
  result: DeliveryResult;
  repositoryId: string | null;
  scanId: string | null;
}

async function applyToConnection(
  db: Kysely<DB>,
  connection: CandidateConnection,
  flavor: DeliveryFlavor,
  event: string,
  facts: DeliveryFacts,
  correlationId: string,
): Promise<TenantOutcome> {
  if (flavor === 'scm-a' && event === 'installation' && facts.installationAction) {
    const next: Record<string, 'revoked' | 'suspended' | 'active'> = {
      deleted: 'revoked',
      suspend: 'suspended',
      unsuspend: 'active',
    };
    const status = next[facts.installationAction];
    if (status) {
      await updateConnectionStatus(
        db,
        connection.id,
        status,
        status === 'active' ? null : `the installation was ${facts.installationAction}d on scm-a`,
      );
      return { result: 'connection_updated', repositoryId: null, scanId: null };
    }
  }
  if (!PUSH_EVENTS[flavor].includes(event)) {
    return { result: 'event_ignored', repositoryId: null, scanId: null };
  }
  if (connection.status !== 'active') {
    return { result: 'connection_inactive', repositoryId: null, scanId: null };
  }
  const repository =
    facts.repositoryIds.length === 0
      ? undefined
      : await db
          .selectFrom('repositories')
          .select(['id', 'default_branch'])
          .where('connection_id', '=', connection.id)
          .where('external_id', 'in', facts.repositoryIds)
          .executeTakeFirst();
  if (!repository) return { result: 'unknown_repository', repositoryId: null, scanId: null };
  const update = facts.updates.find((u) => u.branch === repository.default_branch);
  if (!update) return { result: 'other_branch', repositoryId: repository.id, scanId: null };
  if (update.deleted)
    return { result: 'branch_deleted', repositoryId: repository.id, scanId: null };
  const queued = await queueScan(db, {
    tenantId: connection.tenant_id,
    repositoryId: repository.id,
    trigger: 'push',
    correlationId,
    branch: update.branch,
  }).catch((error: unknown) => {
    // Deleted between the lookup and the queueing: the same as an unknown repository.
    if (error instanceof ProblemError && error.status === 404) return null;
    throw error;
  });
  if (!queued) return { result: 'unknown_repository', repositoryId: null, scanId: null };
  return {
    result: queued.created ? 'scan_queued' : 'scan_already_queued',
    repositoryId: repository.id,
    scanId: queued.scan.id,
  };
}

/**
 * Refuses a delivery without a well-formed identity header before its body is read (an
 * onRequest check): such a request costs its headers, never its bytes.
 */
export function requireIdentityHeader(
  provider: IngestProvider,
  headers: DeliveryRequest['headers'],
): void {
  if (!identityOf(provider, headers)) {
    throw rejected(`The delivery lacks a valid ${provider} identity header.`);
  }
}

export async function ingestDelivery(
  deps: IngestDeps,
  request: DeliveryRequest,
): Promise<IngestOutcome> {
  const identity = identityOf(request.provider, request.headers);
  if (!identity) {
    throw rejected(`The delivery lacks a valid ${request.provider} identity header.`);
  }
  // Token deliveries are verified before the body is read at all; signed ones read it once
  // (see authenticate). Nothing slower than linear runs on an unverified body.
  let parsed: { body: Json | null; facts: DeliveryFacts | null } | undefined;
  const read = () => {
    if (!parsed) {
      const body = parseJsonObject(request.raw);
      parsed = { body, facts: body ? deliveryFacts(identity.flavor, body) : null };
    }
    return parsed;
  };
  const { connections, appSigned } = await authenticate(
    deps,
    identity,
    request.raw,
    () => read().facts,
  );
  if (connections.length === 0 && !appSigned) {
    throw rejected('The delivery could not be verified against any connection.');
  }
  const { body, facts } = read();

  const event = eventOf(identity.flavor, request.headers, body);
  if (!body || !facts) throw badRequest('The delivery body is not a JSON object.');
  // Only what the delivery's facts and event carry reaches a query or the audit log.
  const textErrors = textErrorsIn({ event, facts }, 'body');
  if (Object.keys(textErrors).length > 0) {
    throw badRequest('The delivery contains text that cannot be stored.', textErrors);
  }
  if (!event) {
    throw badRequest(
      identity.flavor === 'scm-c'
        ? 'The delivery payload has no eventType.'
        : 'The delivery lacks its event-type header.',
    );
  }

  const deliveryId =
    header(request.headers, 'x-scm-a-delivery') ??
    header(request.headers, 'x-scm-b-event-uuid') ??
    header(request.headers, 'x-request-uuid') ??
    header(request.headers, 'x-request-id') ??
    null;
  let scansQueued = 0;
  for (const connection of connections) {
    await withTenant(deps.database, connection.tenant_id, async (db) => {
      const outcome = await applyToConnection(
        db,
        connection,
        identity.flavor,
        event,
        facts,
        request.correlationId,
      );
      if (outcome.result === 'scan_queued') scansQueued++;
      await insertAuditEntry(db, {
        actorTokenId: null,
        action: 'webhook.delivery',
        resourceType: outcome.repositoryId ? 'repository' : 'source_control_connection',
        resourceId: outcome.repositoryId ?? connection.id,
        outcome: 'success',
        statusCode: 202,
        ip: request.ip,
        correlationId: request.correlationId,
        details: {
          provider: request.provider,
          connectionId: connection.id,
          event,
          deliveryId: deliveryId?.slice(0, 200) ?? null,
          result: outcome.result,
          scanId: outcome.scanId,
        },
      });
    });
  }
  return { event, scansQueued };
}

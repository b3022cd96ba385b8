import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Config } from '../../config';
import { FieldErrorCollector, notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { RequestScope } from '../../http/request-scope';
import { defineJob } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import {
  checkHost,
  checkUrl,
  OutboundRefusedError,
  outboundPolicy,
} from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import { generateSigningSecret } from '../outbound-deliveries/send';
import { parseConnectionString, redactConnectionString } from './postgres-sink';
import {
  deleteDestination,
  type ExportRun,
  findDestination,
  insertDestination,
  insertRun,
  type PublicDestination,
} from './store';
import type { DestinationKind, RunTrigger } from './tables';

/** The job that runs one export run (one destination). */
export const EXPORT_RUN = defineJob({
  name: 'analytics.export-run',
  payload: Type.Object({ runId: Type.String() }),
  expireInSeconds: 3600,
  retryLimit: 2,
});

export interface CreateDestinationRequest {
  name: string;
  kind: DestinationKind;
  connectionString?: string;
  url?: string;
}

interface CheckedRequest {
  name: string;
  kind: DestinationKind;
  /** What is sealed: the connection string, or the signing secret (https). */
  secret: string;
  /** What callers see. */
  target: string;
  /** The host the guard must accept, and the field named when it does not. */
  host: { field: 'connectionString' | 'url'; value: string };
}

function readHttpsUrl(errors: FieldErrorCollector, raw: string | undefined): string | null {
  if (raw === undefined) {
    errors.add('url', 'is required for an https destination');
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    errors.add('url', 'must be an absolute https URL');
    return null;
  }
  if (url.protocol !== 'https:') errors.add('url', 'must use https');
  else if (url.username || url.password) errors.add('url', 'must not carry credentials');
  else if (url.hash) errors.add('url', 'must not have a fragment');
  else return url.href;
  return null;
}

function readRequest(request: CreateDestinationRequest): CheckedRequest {
  const errors = new FieldErrorCollector();
  const name = request.name.trim();
  if (name === '' || name.length > 200) errors.add('name', 'must be 1 to 200 characters');
  let checked: Omit<CheckedRequest, 'name' | 'kind'> | null = null;
  if (request.kind === 'postgresql') {
    if (request.url !== undefined) errors.add('url', 'is only for https destinations');
    if (request.connectionString === undefined) {
      errors.add('connectionString', 'is required for a postgresql destination');
    } else {
      try {
        const target = parseConnectionString(request.connectionString);
        checked = {
          secret: request.connectionString.trim(),
          target: redactConnectionString(target),
          host: { field: 'connectionString', value: target.host },
        };
      } catch (error) {
        errors.add('connectionString', (error as Error).message);
      }
    }
  } else {
    if (request.connectionString !== undefined) {
      errors.add('connectionString', 'is only for postgresql destinations');
    }
    const url = readHttpsUrl(errors, request.url);
    if (url)
      checked = {
        secret: generateSigningSecret(),
        target: url,
        host: { field: 'url', value: url },
      };
  }
  errors.throwIfAny(422);
  if (!checked) throw new Error('a checked request without a target');
  return { name, kind: request.kind, ...checked };
}

/** The guard's verdict before anything is stored, with no transaction held while it resolves. */
async function checkTarget(
  scope: RequestScope,
  config: Config,
  tenantId: string,
  checked: CheckedRequest,
): Promise<void> {
  const policy = outboundPolicy(config, 'webhooks', tenantId);
  try {
    await scope.outside(async () => {
      if (checked.host.field === 'url') await checkUrl(checked.host.value, policy, ['https:']);
      else await checkHost(checked.host.value, policy);
    });
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    const errors = new FieldErrorCollector();
    errors.add(checked.host.field, error.message);
    errors.throwIfAny(422, 'The destination address is not allowed.');
  }
}

export async function createDestination(
  scope: RequestScope,
  deps: { config: Config; secretBox: SecretBox },
  tenantId: string,
  request: CreateDestinationRequest,
): Promise<{ destination: PublicDestination; secret: string | null }> {
  const checked = readRequest(request);
  await checkTarget(scope, deps.config, tenantId, checked);
  const destination = await insertDestination(scope.db(), {
    id: newId(),
    kind: checked.kind,
    name: checked.name,
    target: checked.target,
    sealed: deps.secretBox.seal(checked.secret),
  });
  return { destination, secret: checked.kind === 'https' ? checked.secret : null };
}

export async function removeDestination(db: Kysely<DB>, id: string): Promise<void> {
  if (!(await deleteDestination(db, id))) throw notFound('The destination');
}

/** A queued run and its job, in the caller's transaction. */
export async function queueRun(
  db: Kysely<DB>,
  input: { tenantId: string; destinationId: string; trigger: RunTrigger; correlationId?: string },
): Promise<ExportRun> {
  if (!(await findDestination(db, input.destinationId))) throw notFound('The destination');
  const run = await insertRun(db, {
    id: newId(),
    destinationId: input.destinationId,
    trigger: input.trigger,
  });
  await enqueue(db, EXPORT_RUN, {
    tenantId: input.tenantId,
    data: { runId: run.id },
    correlationId: input.correlationId ?? null,
  });
  return run;
}

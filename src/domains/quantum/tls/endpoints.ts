import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { Config } from '../../../config';
import {
  badRequest,
  conflict,
  FieldErrorCollector,
  notFound,
  unprocessable,
} from '../../../core/problem';
import { isUniqueViolation } from '../../../db/errors';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import {
  checkHostLiteral,
  OutboundRefusedError,
  outboundPolicy,
  readHost,
} from '../../../security/outbound-guard';
import { repositoryExists } from '../findings';
import { emitInventoryChanged } from '../store';
import type { TlsObservationState } from '../tables';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  lockTenantEndpoints,
  updateEndpoint,
} from './store';

/** The TLS endpoints a tenant watches (docs/quantum.md#tls-observations). */

/** Endpoints one tenant may watch: each is probed on its own schedule, by the service. */
export const MAX_ENDPOINTS_PER_TENANT = 200;
export const DEFAULT_PORT = 443;
export const DEFAULT_INTERVAL_HOURS = 24;
export const MAX_INTERVAL_HOURS = 720;
/** The longest DNS name (RFC 1035), and so the longest host or server name accepted. */
export const MAX_NAME_LENGTH = 253;

export interface TlsEndpoint {
  endpointId: string;
  host: string;
  port: number;
  serverName: string | null;
  repositoryId: string | null;
  intervalHours: number;
  createdAtUtc: string;
  lastProbedAtUtc: string | null;
  nextProbeAtUtc: string;
  latestObservation: {
    observationId: string;
    observedAtUtc: string;
    state: TlsObservationState;
    hybridKexClassicalAuth: boolean;
    verdictReason: string | null;
  } | null;
}

export function presentEndpoint(row: EndpointRow): TlsEndpoint {
  const latest =
    row.latest_observation_id && row.latest_observed_at && row.latest_state
      ? {
          observationId: row.latest_observation_id,
          observedAtUtc: row.latest_observed_at.toISOString(),
          state: row.latest_state,
          hybridKexClassicalAuth: row.latest_hybrid_kex_classical_auth ?? false,
          verdictReason: row.latest_verdict_reason,
        }
      : null;
  return {
    endpointId: row.id,
    host: row.host,
    port: row.port,
    serverName: row.server_name,
    repositoryId: row.repository_id,
    intervalHours: row.interval_hours,
    createdAtUtc: row.created_at.toISOString(),
    lastProbedAtUtc: row.last_probed_at?.toISOString() ?? null,
    nextProbeAtUtc: row.next_probe_at.toISOString(),
    latestObservation: latest,
  };
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * A DNS name as SNI and resolvers take it: lower case, no trailing dot, labels of letters,
 * digits, hyphens (and underscores, which some internal names use), a last label that is not all
 * digits (`127.1` and `2130706433` are IPv4 spellings, not names). Null when it is not one.
 */
export function dnsName(raw: string): string | null {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return null;
  const labels = name.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  return /^[0-9]+$/.test(labels.at(-1) ?? '') ? null : name;
}

/** An IP literal (IPv6 with or without brackets) in its canonical spelling; null otherwise. */
export function ipLiteral(raw: string): string | null {
  const text = raw.trim().replace(/^\[(.*)\]$/, '$1');
  if (isIP(text) === 0) return null;
  const form = readHost(text);
  return form.kind === 'ip' ? form.address.toString() : null;
}

interface ReadHost {
  host: string;
  literal: boolean;
}

/** The host field: a DNS name or an IP literal, and allowed by the guard as far as it can tell. */
function readEndpointHost(
  raw: string,
  config: Config,
  tenantId: string,
  errors: FieldErrorCollector,
): ReadHost | null {
  const literal = ipLiteral(raw);
  const host = literal ?? dnsName(raw);
  if (!host) {
    errors.add('host', 'must be a DNS name or an IP address');
    return null;
  }
  try {
    // IP literals and local names now; a name is resolved (and checked) at every probe.
    checkHostLiteral(host, outboundPolicy(config, 'tls-probes', tenantId));
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    errors.add('host', error.message);
    return null;
  }
  return { host, literal: literal !== null };
}

/** The server name sent as SNI: a DNS name (RFC 6066 has no IP names); null clears it. */
function readServerName(
  raw: string | null | undefined,
  errors: FieldErrorCollector,
): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const name = dnsName(raw);
  if (!name) errors.add('serverName', 'must be a DNS name (SNI carries no IP address)');
  return name ?? undefined;
}

export interface CreateEndpointBody {
  host: string;
  port?: number | undefined;
  serverName?: string | null | undefined;
  intervalHours?: number | undefined;
  repositoryId?: string | null | undefined;
}

/**
 * The repository an endpoint is linked to must be the tenant's: another tenant's id, or one that
 * does not exist, is a 400 naming the field (row-level security hides another tenant's).
 */
async function checkRepository(db: Kysely<DB>, repositoryId: string | null | undefined) {
  if (!repositoryId || (await repositoryExists(db, repositoryId))) return;
  throw badRequest('The endpoint cannot be linked to that repository.', {
    repositoryId: [`no repository ${repositoryId}`],
  });
}

export async function createEndpoint(
  db: Kysely<DB>,
  config: Config,
  tenantId: string,
  body: CreateEndpointBody,
): Promise<TlsEndpoint> {
  const errors = new FieldErrorCollector();
  const host = readEndpointHost(body.host, config, tenantId, errors);
  const serverName = readServerName(body.serverName, errors);
  if (!host || !errors.empty) {
    throw unprocessable('The endpoint cannot be watched.', errors.errors);
  }
  await checkRepository(db, body.repositoryId);
  await lockTenantEndpoints(db, tenantId);
  if ((await countEndpoints(db)) >= MAX_ENDPOINTS_PER_TENANT) {
    throw conflict(
      `The tenant already watches ${MAX_ENDPOINTS_PER_TENANT} TLS endpoints, the most it may: remove one first.`,
    );
  }
  const id = newId();
  const inserted = await insertEndpoint(db, id, {
    host: host.host,
    port: body.port ?? DEFAULT_PORT,
    // A name host is its own server name unless another is given; an IP host has none.
    serverName: serverName ?? (host.literal ? null : host.host),
    intervalHours: body.intervalHours ?? DEFAULT_INTERVAL_HOURS,
    repositoryId: body.repositoryId ?? null,
  });
  if (!inserted) {
    throw conflict('The tenant already watches this host, port and server name.');
  }
  return loadEndpoint(db, id);
}

export async function loadEndpoint(db: Kysely<DB>, endpointId: string): Promise<TlsEndpoint> {
  const row = await findEndpoint(db, endpointId);
  if (!row) throw notFound('The TLS endpoint');
  return presentEndpoint(row);
}

export async function endpointList(db: Kysely<DB>): Promise<TlsEndpoint[]> {
  return (await listEndpoints(db)).map(presentEndpoint);
}

export interface UpdateEndpointBody {
  intervalHours?: number | undefined;
  serverName?: string | null | undefined;
  repositoryId?: string | null | undefined;
}

/**
 * Changes the interval, the server name or the linked repository; a null server name of a name
 * host resets it. Moving the link moves the endpoint's certificates between repositories' quantum
 * facts: both are announced (`quantum.inventory_changed`).
 */
export async function changeEndpoint(
  db: Kysely<DB>,
  target: { tenantId: string; endpointId: string },
  body: UpdateEndpointBody,
): Promise<TlsEndpoint> {
  const { endpointId } = target;
  const current = await findEndpoint(db, endpointId);
  if (!current) throw notFound('The TLS endpoint');
  const errors = new FieldErrorCollector();
  let serverName = readServerName(body.serverName, errors);
  errors.throwIfAny(422, 'The endpoint cannot be changed so.');
  await checkRepository(db, body.repositoryId);
  if (serverName === null && ipLiteral(current.host) === null) serverName = current.host;
  const { intervalHours, repositoryId } = body;
  if (serverName === undefined && intervalHours === undefined && repositoryId === undefined) {
    return presentEndpoint(current);
  }
  try {
    await updateEndpoint(db, endpointId, { intervalHours, serverName, repositoryId });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw conflict('The tenant already watches this host, port and server name.');
  }
  if (repositoryId !== undefined && repositoryId !== current.repository_id) {
    await announceRepositories(db, target.tenantId, [current.repository_id, repositoryId]);
  }
  return loadEndpoint(db, endpointId);
}

async function announceRepositories(
  db: Kysely<DB>,
  tenantId: string,
  repositoryIds: readonly (string | null)[],
): Promise<void> {
  for (const repositoryId of repositoryIds) {
    if (repositoryId) await emitInventoryChanged(db, { tenantId, repositoryId });
  }
}

export async function removeEndpoint(
  db: Kysely<DB>,
  target: { tenantId: string; endpointId: string },
): Promise<void> {
  const current = await findEndpoint(db, target.endpointId);
  if (!current || !(await deleteEndpoint(db, target.endpointId))) {
    throw notFound('The TLS endpoint');
  }
  await announceRepositories(db, target.tenantId, [current.repository_id]);
}

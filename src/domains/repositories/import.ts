import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { PLAN_DEFINITIONS, type Plan } from '../../core/plans';
import { FieldErrorCollector, ProblemError } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../security/secret-box';
import {
  GitCheckoutError,
  isValidBranchName,
  type ParsedCloneUrl,
  parseCloneUrl,
  remoteDefaultBranch,
} from '../../sources/git';
import { isApiProvider } from '../../sources/providers';
import type { ProviderRepository } from '../../sources/types';
import {
  clientFor,
  cloneCredentialsFor,
  loadUsableConnection,
  problemFor,
} from '../source-control/service';

/**
 * POST /api/v1/repositories/import. Two shapes, one per request:
 * - `{ connectionId, repositories: [{ externalId, defaultBranch?, name? }] }`: the provider's
 *   repository ids, resolved through the connection's provider;
 * - `{ repositories: [{ url, defaultBranch?, name?, deployKey? }] }`: clone URLs (https; ssh with
 *   an optional deploy key, sealed at rest; file:// only where configuration allows it).
 * Every item gets a status. The request is a 409 only when every item was already imported
 * (nothing new could come of it); otherwise 200 with per-item statuses.
 */
export interface ImportItemInput {
  externalId?: string;
  url?: string;
  name?: string;
  defaultBranch?: string;
  deployKey?: string;
}

export interface ImportRequest {
  connectionId?: string | null;
  repositories: ImportItemInput[];
}

export type ImportStatus = 'imported' | 'alreadyImported' | 'notFound' | 'invalid' | 'limitReached';

export interface ImportItemResult {
  index: number;
  status: ImportStatus;
  repositoryId: string | null;
  externalId: string | null;
  url: string | null;
  name: string | null;
  message: string | null;
}

export interface ImportDeps {
  config: Config;
  secretBox: SecretBox;
}

const PRIVATE_KEY =
  /^-----BEGIN ([A-Z0-9 ]+ )?PRIVATE KEY-----\r?\n[\s\S]+\r?\n-----END ([A-Z0-9 ]+ )?PRIVATE KEY-----\s*$/;
const MAX_DEPLOY_KEY = 16 * 1024;
const ITEM_FIELDS = new Set(['externalId', 'url', 'name', 'defaultBranch', 'deployKey']);
/** Discovering default branches of clone URLs: a few at once, each bounded. */
const DISCOVERY_CONCURRENCY = 4;
// Kept under the pool's 10 s connection wait: discovery runs inside the request's transaction,
// and on the embedded database (one connection) other requests wait for it.
const DISCOVERY_TIMEOUT_MS = 8_000;

interface Candidate {
  index: number;
  input: ImportItemInput;
  parsed?: ParsedCloneUrl;
  name?: string;
}

/** `byProvider`: items are provider ids (an API connection); otherwise clone URLs. */
function validate(
  request: ImportRequest,
  config: Config,
  byProvider: boolean,
  gitConnection: boolean,
): Candidate[] {
  const errors = new FieldErrorCollector();
  const byConnection = byProvider;
  const candidates = request.repositories.map((input, index) => {
    const at = (field: string) => `repositories[${index}].${field}`;
    const candidate: Candidate = { index, input };
    for (const key of Object.keys(input)) {
      if (!ITEM_FIELDS.has(key)) errors.add(at(key), 'is not a known field');
    }
    if (input.name !== undefined && input.name.trim() === '') {
      errors.add(at('name'), 'must not be empty');
    }
    if (input.defaultBranch !== undefined && !isValidBranchName(input.defaultBranch)) {
      errors.add(at('defaultBranch'), 'must be a valid git branch name');
    }
    if (byConnection) {
      if (!input.externalId?.trim()) {
        errors.add(at('externalId'), "is required with a provider's connectionId");
      }
      if (input.url !== undefined) {
        errors.add(at('url'), "must not be set with a provider's connectionId");
      }
      if (input.deployKey !== undefined) {
        errors.add(at('deployKey'), "must not be set with a provider's connectionId");
      }
      return candidate;
    }
    if (input.externalId !== undefined) {
      errors.add(at('externalId'), "needs a provider's connectionId (or import by url)");
    }
    if (input.url === undefined) {
      errors.add(at('url'), 'is required without connectionId');
      return candidate;
    }
    const parsed = parseCloneUrl(input.url);
    if ('error' in parsed) {
      errors.add(at('url'), parsed.error);
      return candidate;
    }
    if (gitConnection && parsed.kind !== 'https') {
      errors.add(at('url'), "must be https: the connection's credentials are https credentials");
    }
    if (parsed.kind === 'file' && !config.scans.allowFileUrls) {
      errors.add(at('url'), 'file:// URLs are disabled on this server (SCAN_ALLOW_FILE_URLS)');
    }
    if (input.deployKey !== undefined) {
      if (parsed.kind !== 'ssh') errors.add(at('deployKey'), 'is only used with ssh URLs');
      else if (input.deployKey.length > MAX_DEPLOY_KEY || !PRIVATE_KEY.test(input.deployKey)) {
        errors.add(at('deployKey'), 'must be a PEM or OpenSSH private key');
      }
    }
    candidate.parsed = parsed;
    return candidate;
  });
  errors.throwIfAny(400, 'The import request has invalid repositories.');
  return candidates;
}

async function mapLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

async function discoverBranch(
  candidate: Candidate,
  config: Config,
  credentials: { username: string; password: string } | null,
): Promise<{ branch: string } | { error: string }> {
  if (candidate.input.defaultBranch) return { branch: candidate.input.defaultBranch };
  const workDirectory = await mkdtemp(join(tmpdir(), 'driftwatch-import-'));
  try {
    const branch = await remoteDefaultBranch({
      url: (candidate.parsed as ParsedCloneUrl).url,
      workDirectory,
      deployKey: candidate.input.deployKey ?? null,
      credentials,
      caFile: config.scans.gitCaFile,
      allowFileUrls: config.scans.allowFileUrls,
      timeoutMs: DISCOVERY_TIMEOUT_MS,
    });
    return { branch };
  } catch (error) {
    const message = error instanceof GitCheckoutError ? error.message : 'git failed';
    return {
      error: `the repository could not be read (${message}); check the URL, or name defaultBranch`,
    };
  } finally {
    await rm(workDirectory, { recursive: true, force: true }).catch(() => {});
  }
}

interface NewRepository {
  connection_id: string | null;
  provider: string;
  external_id: string | null;
  name: string;
  full_name: string;
  clone_url: string;
  web_url: string | null;
  default_branch: string;
  deploy_key_sealed: string | null;
}

/** Inserts unless the clone URL or provider id is already imported; returns [id, created]. */
async function insertOnce(
  db: Kysely<DB>,
  tenantId: string,
  repository: NewRepository,
): Promise<[string, boolean]> {
  const inserted = await db
    .insertInto('repositories')
    .values({ tenant_id: tenantId, id: newId(), ...repository })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return [inserted.id, true];
  const existing = await existingRepository(db, repository);
  if (!existing) throw new Error('repository insert conflicted but nothing matched');
  return [existing, false];
}

async function existingRepository(
  db: Kysely<DB>,
  repository: Pick<NewRepository, 'clone_url' | 'connection_id' | 'external_id'>,
): Promise<string | undefined> {
  let query = db.selectFrom('repositories').select('id');
  query =
    repository.connection_id && repository.external_id
      ? query.where((eb) =>
          eb.or([
            eb('clone_url', '=', repository.clone_url),
            eb.and([
              eb('connection_id', '=', repository.connection_id),
              eb('external_id', '=', repository.external_id),
            ]),
          ]),
        )
      : query.where('clone_url', '=', repository.clone_url);
  return (await query.executeTakeFirst())?.id;
}

function nameFromPath(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

function fullNameFromUrl(parsed: ParsedCloneUrl): string {
  if (parsed.kind === 'file') {
    // A local path: its last two segments read like owner/name without exposing the server's layout.
    return parsed.path.split('/').filter(Boolean).slice(-2).join('/');
  }
  return parsed.path || parsed.host || parsed.url;
}

function webUrlOf(parsed: ParsedCloneUrl): string | null {
  if (parsed.kind !== 'https') return null;
  return parsed.url.replace(/\.git\/?$/, '');
}

export async function importRepositories(
  db: Kysely<DB>,
  deps: ImportDeps,
  principal: { tenantId: string; plan: Plan },
  request: ImportRequest,
): Promise<{ items: ImportItemResult[] }> {
  const connection = request.connectionId
    ? await loadUsableConnection(db, deps.secretBox, deps.config, request.connectionId)
    : null;
  const byProvider = connection !== null && isApiProvider(connection.provider);
  const candidates = validate(request, deps.config, byProvider, connection?.provider === 'git');
  const results: ImportItemResult[] = candidates.map((c) => ({
    index: c.index,
    status: 'invalid',
    repositoryId: null,
    externalId: c.input.externalId?.trim() ?? null,
    url: c.parsed ? c.parsed.url : (c.input.url ?? null),
    name: null,
    message: null,
  }));

  // What each item would create, resolved before anything is written.
  const planned: Array<{ index: number; repository: NewRepository } | null> = [];
  if (connection && isApiProvider(connection.provider)) {
    const provider = connection.provider;
    for (const candidate of candidates) {
      const externalId = (candidate.input.externalId as string).trim();
      const result = results[candidate.index] as ImportItemResult;
      const known = await db
        .selectFrom('repositories')
        .select('id')
        .where('connection_id', '=', connection.id)
        .where('external_id', '=', externalId)
        .executeTakeFirst();
      if (known) {
        Object.assign(result, { status: 'alreadyImported', repositoryId: known.id });
        planned.push(null);
        continue;
      }
      let found: ProviderRepository | null;
      try {
        found = await clientFor(deps.config, provider).getRepository(connection, externalId);
      } catch (error) {
        throw problemFor(error, 502);
      }
      if (!found) {
        Object.assign(result, {
          status: 'notFound',
          message: 'the provider does not know this repository id, or the connection cannot see it',
        });
        planned.push(null);
        continue;
      }
      const parsed = parseCloneUrl(found.cloneUrl);
      const branch = candidate.input.defaultBranch ?? found.defaultBranch;
      // https as providers answer; file:// only where configuration allows local repositories.
      const usable =
        !('error' in parsed) &&
        (parsed.kind === 'https' || (parsed.kind === 'file' && deps.config.scans.allowFileUrls));
      if ('error' in parsed || !usable || !isValidBranchName(branch)) {
        Object.assign(result, {
          message: 'the provider returned a clone URL or default branch that cannot be used',
        });
        planned.push(null);
        continue;
      }
      planned.push({
        index: candidate.index,
        repository: {
          connection_id: connection.id,
          provider: connection.provider,
          external_id: found.externalId,
          name: candidate.input.name?.trim() || found.name,
          full_name: found.fullName,
          clone_url: parsed.url,
          web_url: found.webUrl,
          default_branch: branch,
          deploy_key_sealed: null,
        },
      });
    }
  } else {
    // Known URLs first (no network for those), then the default branch of the new ones.
    const fresh: Candidate[] = [];
    for (const candidate of candidates) {
      const parsed = candidate.parsed as ParsedCloneUrl;
      const known = await existingRepository(db, {
        clone_url: parsed.url,
        connection_id: null,
        external_id: null,
      });
      if (known) {
        Object.assign(results[candidate.index] as ImportItemResult, {
          status: 'alreadyImported',
          repositoryId: known,
        });
      } else fresh.push(candidate);
    }
    const credentials =
      connection?.provider === 'git' ? await cloneCredentialsFor(deps.config, connection) : null;
    const branches = await mapLimited(fresh, DISCOVERY_CONCURRENCY, (c) =>
      discoverBranch(c, deps.config, credentials),
    );
    fresh.forEach((candidate, i) => {
      const parsed = candidate.parsed as ParsedCloneUrl;
      const branch = branches[i] as { branch: string } | { error: string };
      if ('error' in branch) {
        Object.assign(results[candidate.index] as ImportItemResult, {
          status: 'notFound',
          message: branch.error,
        });
        return;
      }
      planned.push({
        index: candidate.index,
        repository: {
          connection_id: connection?.id ?? null,
          provider: 'git',
          external_id: null,
          name: candidate.input.name?.trim() || nameFromPath(parsed.path) || parsed.url,
          full_name: fullNameFromUrl(parsed),
          clone_url: parsed.url,
          web_url: webUrlOf(parsed),
          default_branch: branch.branch,
          deploy_key_sealed: candidate.input.deployKey
            ? deps.secretBox.seal(candidate.input.deployKey)
            : null,
        },
      });
    });
  }

  const limit = PLAN_DEFINITIONS[principal.plan].limits.repositories;
  const counted = await db
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  let count = Number(counted.n);
  for (const plan of planned) {
    if (!plan) continue;
    const result = results[plan.index] as ImportItemResult;
    if (count >= limit) {
      Object.assign(result, {
        status: 'limitReached',
        message: `the ${principal.plan} plan allows ${limit} repositories`,
      });
      continue;
    }
    // Two items of one request naming the same repository: the second is "already imported".
    const [id, created] = await insertOnce(db, principal.tenantId, plan.repository);
    Object.assign(result, {
      status: created ? 'imported' : 'alreadyImported',
      repositoryId: id,
      name: plan.repository.name,
      url: plan.repository.clone_url,
      externalId: plan.repository.external_id,
    });
    if (created) count++;
  }

  const items = results;
  if (items.every((item) => item.status === 'alreadyImported')) {
    const errors: Record<string, string[]> = {};
    for (const item of items) {
      errors[`repositories[${item.index}]`] = [
        `already imported as repository ${item.repositoryId}`,
      ];
    }
    throw new ProblemError(409, 'Every repository of the request is already imported.', { errors });
  }
  return { items };
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { PLAN_DEFINITIONS, type Plan } from '../../core/plans';
import { FieldErrorCollector, ProblemError } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { RequestScope } from '../../http/request-scope';
import { checkHostLiteral, OutboundRefusedError } from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import {
  type GitAccess,
  GitCheckoutError,
  isValidBranchName,
  type ParsedCloneUrl,
  parseCloneUrl,
  pinRemote,
  remoteDefaultBranch,
} from '../../sources/git';
import { isApiProvider } from '../../sources/providers';
import type { ProviderRepository } from '../../sources/types';
import { gitAccessFor } from '../source-control/clone-access';
import {
  clientForConnection,
  cloneCredentialsFor,
  type LoadedConnection,
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
  /** Server-side log (git's own words on failure; never shown to the caller). */
  log?: (message: string, details: Record<string, unknown>) => void;
}

const PRIVATE_KEY =
  /^-----BEGIN ([A-Z0-9 ]+ )?PRIVATE KEY-----\r?\n[\s\S]+\r?\n-----END ([A-Z0-9 ]+ )?PRIVATE KEY-----\s*$/;
const MAX_DEPLOY_KEY = 16 * 1024;
const ITEM_FIELDS = new Set(['externalId', 'url', 'name', 'defaultBranch', 'deployKey']);
/** Discovering default branches of clone URLs: a few at once, each bounded. */
const DISCOVERY_CONCURRENCY = 4;
// Discovery holds no database connection (it runs outside the request's transaction); the bound
// keeps the request itself short.
const DISCOVERY_TIMEOUT_MS = 8_000;
const FILE_REFUSED = 'must name a git repository below a configured root (SCAN_FILE_URL_ROOTS)';

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
  deps: ImportDeps,
  access: GitAccess,
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
      caFile: deps.config.scans.gitCaFile,
      access,
      timeoutMs: DISCOVERY_TIMEOUT_MS,
      log: deps.log,
    });
    return { branch };
  } catch (error) {
    // GitCheckoutError messages name no host, address or git output (docs/outbound-guard.md).
    const message = error instanceof GitCheckoutError ? error.message : 'git failed';
    return {
      error: `the repository could not be read (${message}); check the URL, or name defaultBranch`,
    };
  } finally {
    await rm(workDirectory, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * The guard for every new clone URL, before anything is stored or connected to, defaultBranch
 * given or not: a refused URL fails the whole request (400 on its `url`).
 */
async function guardUrls(fresh: Candidate[], access: GitAccess, deps: ImportDeps): Promise<void> {
  const errors = new FieldErrorCollector();
  for (const candidate of fresh) {
    const parsed = candidate.parsed as ParsedCloneUrl;
    try {
      await pinRemote(parsed, access);
    } catch (error) {
      if (error instanceof GitCheckoutError && error.failure === 'missing') {
        // A folder below the tenant's own root that does not exist: say so, not "not allowed".
        errors.add(`repositories[${candidate.index}].url`, 'no repository exists at this path');
        continue;
      }
      if (!(error instanceof GitCheckoutError) || error.failure !== 'refused') throw error;
      deps.log?.('import refused a clone URL', { index: candidate.index, detail: error.detail });
      errors.add(
        `repositories[${candidate.index}].url`,
        // The guard's own words (REFUSED_MESSAGE, or https unavailable): nothing about hosts.
        parsed.kind === 'file' ? FILE_REFUSED : error.message,
      );
    }
  }
  errors.throwIfAny(400, 'The import request has invalid repositories.');
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

/**
 * Inserts unless the clone URL or provider id is already imported; returns [id, created].
 * Runs in the request's tenant scope: the database fills tenant_id from it.
 */
async function insertOnce(db: Kysely<DB>, repository: NewRepository): Promise<[string, boolean]> {
  const inserted = await db
    .insertInto('repositories')
    .values({ id: newId(), ...repository })
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

type Planned = { index: number; repository: NewRepository };

/** Resolves provider ids with the provider (no transaction held): what each item would create. */
async function resolveProviderItems(
  deps: ImportDeps,
  connection: LoadedConnection,
  fresh: Candidate[],
  results: ImportItemResult[],
): Promise<Planned[]> {
  const provider = connection.provider;
  if (provider === 'git') return [];
  const client = clientForConnection(deps.config, { ...connection, provider });
  const access = gitAccessFor(deps.config, connection.tenantId);
  const planned: Planned[] = [];
  for (const candidate of fresh) {
    const externalId = (candidate.input.externalId as string).trim();
    const result = results[candidate.index] as ImportItemResult;
    let found: ProviderRepository | null;
    try {
      found = await client.getRepository(connection, externalId);
    } catch (error) {
      throw problemFor(error, 502);
    }
    if (!found) {
      Object.assign(result, {
        status: 'notFound',
        message: 'the provider does not know this repository id, or the connection cannot see it',
      });
      continue;
    }
    const parsed = parseCloneUrl(found.cloneUrl);
    const branch = candidate.input.defaultBranch ?? found.defaultBranch;
    if (
      'error' in parsed ||
      !(await providerCloneUrlUsable(parsed, access)) ||
      !isValidBranchName(branch)
    ) {
      Object.assign(result, {
        message: 'the provider returned a clone URL or default branch that cannot be used',
      });
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
  return planned;
}

/**
 * A provider's clone URL: https (its host checked now when it is an IP literal; a name is
 * resolved and checked before every clone), or file:// below the roots where allowed.
 */
async function providerCloneUrlUsable(parsed: ParsedCloneUrl, access: GitAccess): Promise<boolean> {
  try {
    if (parsed.kind === 'file') await pinRemote(parsed, access);
    else if (parsed.kind === 'https') checkHostLiteral(new URL(parsed.url).hostname, access.policy);
    else return false;
    return true;
  } catch (error) {
    if (error instanceof OutboundRefusedError) return false;
    if (error instanceof GitCheckoutError && error.failure === 'refused') return false;
    throw error;
  }
}

/** Guards and discovers clone URLs (no transaction held): what each item would create. */
async function resolveUrlItems(
  deps: ImportDeps,
  tenantId: string,
  connection: LoadedConnection | null,
  fresh: Candidate[],
  results: ImportItemResult[],
): Promise<Planned[]> {
  const access = gitAccessFor(deps.config, tenantId);
  await guardUrls(fresh, access, deps);
  const credentials =
    connection?.provider === 'git' ? await cloneCredentialsFor(deps.config, connection) : null;
  const branches = await mapLimited(fresh, DISCOVERY_CONCURRENCY, (c) =>
    discoverBranch(c, deps, access, credentials),
  );
  const planned: Planned[] = [];
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
  return planned;
}

/** Items already imported are answered from the database, before any network. */
async function splitKnown(
  db: Kysely<DB>,
  connection: LoadedConnection | null,
  byProvider: boolean,
  candidates: Candidate[],
  results: ImportItemResult[],
): Promise<Candidate[]> {
  const fresh: Candidate[] = [];
  for (const candidate of candidates) {
    const known = byProvider
      ? (
          await db
            .selectFrom('repositories')
            .select('id')
            .where('connection_id', '=', (connection as LoadedConnection).id)
            .where('external_id', '=', (candidate.input.externalId as string).trim())
            .executeTakeFirst()
        )?.id
      : await existingRepository(db, {
          clone_url: (candidate.parsed as ParsedCloneUrl).url,
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
  return fresh;
}

/**
 * Reads in the request's transaction, then steps out of it for the network (provider API,
 * the guard's DNS lookups, `git ls-remote`), then writes in a new scoped transaction.
 */
export async function importRepositories(
  scope: RequestScope,
  deps: ImportDeps,
  principal: { tenantId: string; plan: Plan },
  request: ImportRequest,
): Promise<{ items: ImportItemResult[] }> {
  const connection = request.connectionId
    ? await loadUsableConnection(scope.db(), deps.secretBox, deps.config, request.connectionId)
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
  const fresh = await splitKnown(scope.db(), connection, byProvider, candidates, results);
  const planned =
    fresh.length === 0
      ? []
      : await scope.outside(() =>
          byProvider && connection
            ? resolveProviderItems(deps, connection, fresh, results)
            : resolveUrlItems(deps, principal.tenantId, connection, fresh, results),
        );
  await storePlanned(scope.db(), principal, planned, results);

  if (results.every((item) => item.status === 'alreadyImported')) {
    const errors: Record<string, string[]> = {};
    for (const item of results) {
      errors[`repositories[${item.index}]`] = [
        `already imported as repository ${item.repositoryId}`,
      ];
    }
    throw new ProblemError(409, 'Every repository of the request is already imported.', { errors });
  }
  return { items: results };
}

/** Inserts what was planned, within the plan's repository limit. */
async function storePlanned(
  db: Kysely<DB>,
  principal: { tenantId: string; plan: Plan },
  planned: Planned[],
  results: ImportItemResult[],
): Promise<void> {
  const limit = PLAN_DEFINITIONS[principal.plan].limits.repositories;
  const counted = await db
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  let count = Number(counted.n);
  planned.sort((a, b) => a.index - b.index);
  for (const plan of planned) {
    const result = results[plan.index] as ImportItemResult;
    if (count >= limit) {
      Object.assign(result, {
        status: 'limitReached',
        message: `the ${principal.plan} plan allows ${limit} repositories`,
      });
      continue;
    }
    // Two items of one request naming the same repository: the second is "already imported".
    const [id, created] = await insertOnce(db, plan.repository);
    Object.assign(result, {
      status: created ? 'imported' : 'alreadyImported',
      repositoryId: id,
      name: plan.repository.name,
      url: plan.repository.clone_url,
      externalId: plan.repository.external_id,
    });
    if (created) count++;
  }
}

import { joinUrl } from '../core/http-client';
import { asArray, asObject, type JsonObject, scalarText } from '../core/json-values';
import {
  MAX_PAGES,
  malformed,
  type ProviderHttpOptions,
  providerRequest,
  sameOrigin,
  withoutUserInfo,
} from './http';
import type { ProviderClient } from './provider-client';
import { type ProviderConnection, ProviderError, type ProviderRepository } from './types';

/**
 * scm-d in two flavours, told apart by `credentials.flavor`:
 * - cloud: API 2.0, a workspace (the connection's externalId), HTTP Basic with a user name and an
 *   app password, or a Bearer access token; pages follow the `next` link of each answer.
 * - datacenter: REST 1.0 under the server root, a Bearer HTTP access token; pages follow
 *   `isLastPage` / `nextPageStart`. Repository ids are `PROJECT/slug` (the server's numeric ids
 *   have no lookup endpoint); the default branch comes from its own endpoint.
 */

export type ScmDFlavor = 'cloud' | 'datacenter';

const UUID_BRACED = /^\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i;
const WORKSPACE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const DC_ID = /^([A-Za-z0-9_~-]{1,128})\/([A-Za-z0-9_.-]{1,128})$/;
const DC_CONCURRENCY = 4;

export function flavorOf(connection: ProviderConnection): ScmDFlavor {
  return connection.credentials.flavor === 'datacenter' ? 'datacenter' : 'cloud';
}

function authorization(connection: ProviderConnection): string {
  const { token, username, appPassword } = connection.credentials;
  if (flavorOf(connection) === 'cloud' && username && appPassword) {
    return `Basic ${Buffer.from(`${username}:${appPassword}`).toString('base64')}`;
  }
  if (token) return `Bearer ${token}`;
  throw new ProviderError('unauthorized', 'the connection has no scm-d credential');
}

function workspaceOf(connection: ProviderConnection): string {
  const workspace = connection.externalId;
  if (!workspace || !WORKSPACE.test(workspace)) {
    throw new ProviderError('not_found', 'the connection names no scm-d workspace');
  }
  return workspace;
}

function cloneLink(links: JsonObject | null, names: string[]): string | null {
  for (const entry of asArray(links?.clone)) {
    const link = asObject(entry);
    const name = scalarText(link?.name);
    const href = scalarText(link?.href);
    if (name && href && names.includes(name) && href.startsWith('http')) {
      return withoutUserInfo(href);
    }
  }
  return null;
}

function mapCloud(value: unknown): ProviderRepository {
  const repo = asObject(value);
  const links = asObject(repo?.links);
  const id = scalarText(repo?.uuid);
  const fullName = scalarText(repo?.full_name);
  const name = scalarText(repo?.slug) ?? scalarText(repo?.name);
  const cloneUrl = cloneLink(links, ['https']);
  if (!repo || !id || !fullName || !name || !cloneUrl) throw malformed('repository');
  return {
    externalId: id,
    name,
    fullName,
    cloneUrl,
    webUrl: scalarText(asObject(links?.html)?.href),
    defaultBranch: scalarText(asObject(repo.mainbranch)?.name) ?? 'main',
    private: repo.is_private !== false,
  };
}

function mapDataCenter(value: unknown, defaultBranch: string): ProviderRepository {
  const repo = asObject(value);
  const links = asObject(repo?.links);
  const project = asObject(repo?.project);
  const slug = scalarText(repo?.slug);
  const key = scalarText(project?.key);
  const cloneUrl = cloneLink(links, ['http', 'https']);
  if (!repo || !slug || !key || !cloneUrl) throw malformed('repository');
  return {
    externalId: `${key}/${slug}`,
    name: slug,
    fullName: `${key}/${slug}`,
    cloneUrl,
    webUrl: scalarText(asObject(asArray(links?.self)[0])?.href),
    defaultBranch,
    private: repo.public !== true,
  };
}

export function createScmD(http: ProviderHttpOptions): ProviderClient {
  const get = (connection: ProviderConnection, url: string) =>
    providerRequest({ url, headers: { authorization: authorization(connection) } }, http);

  const { dcUrl, dcRepository, listDataCenterRepositories } = dataCenterApi(get);

  return {
    id: 'scm-d',

    async verify(connection) {
      if (flavorOf(connection) === 'datacenter') {
        await get(connection, dcUrl(connection, '/projects?limit=1'));
        return { accountName: connection.credentials.username ?? null, suspended: false };
      }
      const workspace = workspaceOf(connection);
      await get(connection, joinUrl(connection.baseUrl, `/repositories/${workspace}?pagelen=1`));
      return { accountName: workspace, suspended: false };
    },

    async listRepositories(connection) {
      if (flavorOf(connection) === 'datacenter') {
        return listDataCenterRepositories(connection);
      }
      return listCloudRepositories(get, connection);
    },

    async getRepository(connection, externalId) {
      try {
        if (flavorOf(connection) === 'datacenter') {
          const match = DC_ID.exec(externalId);
          if (!match) return null;
          const [, key = '', slug = ''] = match;
          const response = await get(
            connection,
            dcUrl(
              connection,
              `/projects/${encodeURIComponent(key)}/repos/${encodeURIComponent(slug)}`,
            ),
          );
          return await dcRepository(connection, response.json);
        }
        if (!UUID_BRACED.test(externalId)) return null;
        const workspace = workspaceOf(connection);
        const response = await get(
          connection,
          joinUrl(
            connection.baseUrl,
            `/repositories/${workspace}/${encodeURIComponent(externalId)}`,
          ),
        );
        return mapCloud(response.json);
      } catch (error) {
        if (error instanceof ProviderError && error.failure === 'not_found') return null;
        throw error;
      }
    },

    async cloneCredentials(connection) {
      const { token, username, appPassword } = connection.credentials;
      if (flavorOf(connection) === 'cloud' && username && appPassword) {
        return { username, password: appPassword };
      }
      if (!token) throw new ProviderError('unauthorized', 'the connection has no scm-d credential');
      return { username: username ?? 'x-token-auth', password: token };
    },
  };
}

type Get = (connection: ProviderConnection, url: string) => ReturnType<typeof providerRequest>;

/** The data-center flavour's paged collections and repositories (REST API 1.0). */
function dataCenterApi(get: Get) {
  const dcUrl = (connection: ProviderConnection, path: string) =>
    joinUrl(connection.baseUrl, `/rest/api/1.0${path}`);

  /** Every value of a data-center paged collection. */
  const dcPages = async (connection: ProviderConnection, path: string): Promise<unknown[]> => {
    const values: unknown[] = [];
    let start = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const separator = path.includes('?') ? '&' : '?';
      const response = await get(
        connection,
        dcUrl(connection, `${path}${separator}limit=100&start=${start}`),
      );
      const body = asObject(response.json);
      if (!body || !Array.isArray(body.values)) throw malformed('page');
      values.push(...asArray(body.values));
      const next = body.nextPageStart;
      if (body.isLastPage !== false || typeof next !== 'number' || next <= start) break;
      start = next;
    }
    return values;
  };

  const dcDefaultBranch = async (connection: ProviderConnection, key: string, slug: string) => {
    try {
      const response = await get(
        connection,
        dcUrl(
          connection,
          `/projects/${encodeURIComponent(key)}/repos/${encodeURIComponent(slug)}/branches/default`,
        ),
      );
      return scalarText(asObject(response.json)?.displayId) ?? 'main';
    } catch (error) {
      // An empty repository has no default branch yet (404, or 204 with no body).
      if (error instanceof ProviderError && error.failure === 'not_found') return 'main';
      throw error;
    }
  };

  const dcRepository = async (connection: ProviderConnection, value: unknown) => {
    const repo = asObject(value);
    const key = scalarText(asObject(repo?.project)?.key);
    const slug = scalarText(repo?.slug);
    if (!key || !slug) throw malformed('repository');
    return mapDataCenter(value, await dcDefaultBranch(connection, key, slug));
  };

  /** Every repository of every project, with one extra call each for its default branch. */
  const listDataCenterRepositories = async (connection: ProviderConnection) => {
    const projects = await dcPages(connection, '/projects');
    const raw: unknown[] = [];
    for (const value of projects) {
      const key = scalarText(asObject(value)?.key);
      if (!key) throw malformed('project');
      raw.push(...(await dcPages(connection, `/projects/${encodeURIComponent(key)}/repos`)));
    }
    // One extra call per repository for its default branch, a few at a time.
    const repositories: ProviderRepository[] = new Array(raw.length);
    let next = 0;
    const worker = async () => {
      while (next < raw.length) {
        const index = next++;
        repositories[index] = await dcRepository(connection, raw[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(DC_CONCURRENCY, raw.length) }, worker));
    return repositories;
  };

  return { dcUrl, dcRepository, listDataCenterRepositories };
}

/** The cloud flavour's repositories of the connection's workspace, following `next` links. */
async function listCloudRepositories(get: Get, connection: ProviderConnection) {
  const workspace = workspaceOf(connection);
  const repositories: ProviderRepository[] = [];
  let url: string | null = joinUrl(
    connection.baseUrl,
    `/repositories/${workspace}?pagelen=100&sort=full_name`,
  );
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const body: JsonObject | null = asObject((await get(connection, url)).json);
    if (!body || !Array.isArray(body.values)) throw malformed('repository page');
    for (const value of asArray(body.values)) repositories.push(mapCloud(value));
    const next = scalarText(body.next);
    url = next ? sameOrigin(connection.baseUrl, next) : null;
  }
  return repositories;
}

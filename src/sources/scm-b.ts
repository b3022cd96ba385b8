import { joinUrl } from '../core/http-client';
import { asArray, asObject, scalarText } from '../core/json-values';
import { MAX_PAGES, malformed, type ProviderHttpOptions, providerRequest } from './http';
import type { ProviderClient } from './provider-client';
import { type ProviderConnection, ProviderError, type ProviderRepository } from './types';

/**
 * scm-b: the group/project service (REST v4) with a personal, group or project access token sent
 * as PRIVATE-TOKEN. Lists the projects the token is a member of; paging follows X-Next-Page.
 * Connection credentials: `token`. The API base includes /api/v4.
 */

const NUMERIC = /^[1-9]\d{0,18}$/;

function tokenOf(connection: ProviderConnection): string {
  const token = connection.credentials.token;
  if (!token) throw new ProviderError('unauthorized', 'the connection has no scm-b access token');
  return token;
}

function mapProject(value: unknown): ProviderRepository {
  const project = asObject(value);
  const id = scalarText(project?.id);
  const name = scalarText(project?.path) ?? scalarText(project?.name);
  const fullName = scalarText(project?.path_with_namespace);
  const cloneUrl = scalarText(project?.http_url_to_repo);
  if (!project || !id || !name || !fullName || !cloneUrl) throw malformed('project');
  return {
    externalId: id,
    name,
    fullName,
    cloneUrl,
    webUrl: scalarText(project.web_url),
    // An empty project has no default branch yet; it gets one with its first push.
    defaultBranch: scalarText(project.default_branch) ?? 'main',
    private: scalarText(project.visibility) !== 'public',
  };
}

export function createScmB(http: ProviderHttpOptions): ProviderClient {
  const get = (connection: ProviderConnection, path: string) =>
    providerRequest(
      {
        url: joinUrl(connection.baseUrl, path),
        headers: { 'private-token': tokenOf(connection) },
      },
      http,
    );

  return {
    id: 'scm-b',

    async verify(connection) {
      const response = await get(connection, '/user');
      const user = asObject(response.json);
      if (!user) throw malformed('user');
      return { accountName: scalarText(user.username), suspended: false };
    },

    async listRepositories(connection) {
      const projects: ProviderRepository[] = [];
      let page: string | null = '1';
      for (let count = 0; page && count < MAX_PAGES; count++) {
        const response = await get(
          connection,
          `/projects?membership=true&archived=false&order_by=id&sort=asc&per_page=100&page=${page}`,
        );
        if (!Array.isArray(response.json)) throw malformed('project page');
        for (const project of asArray(response.json)) projects.push(mapProject(project));
        const next = response.headers.get('x-next-page')?.trim() ?? '';
        page = /^[1-9]\d{0,6}$/.test(next) && next !== page ? next : null;
      }
      return projects;
    },

    async getRepository(connection, externalId) {
      if (!NUMERIC.test(externalId)) return null;
      try {
        return mapProject((await get(connection, `/projects/${externalId}`)).json);
      } catch (error) {
        if (error instanceof ProviderError && error.failure === 'not_found') return null;
        throw error;
      }
    },

    async cloneCredentials(connection) {
      return { username: 'oauth2', password: tokenOf(connection) };
    },
  };
}

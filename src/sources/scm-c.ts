import { joinUrl } from '../core/http-client';
import { asArray, asObject, scalarText } from '../core/json-values';
import { isUuid } from '../core/uuid';
import {
  MAX_PAGES,
  malformed,
  type ProviderHttpOptions,
  providerRequest,
  withoutUserInfo,
} from './http';
import type { ProviderClient } from './provider-client';
import { type ProviderConnection, ProviderError, type ProviderRepository } from './types';

/**
 * scm-c: the organisation/project service. A personal access token travels as HTTP Basic with an
 * empty user name; every call names the organisation (the connection's externalId) and
 * api-version=7.1. The repository list is one answer ({count, value}); a continuation token
 * header, when sent, is followed. Connection credentials: `token`.
 */

const API_VERSION = '7.1';
const ORGANIZATION = /^[A-Za-z0-9][A-Za-z0-9-]{0,49}$/;

function tokenOf(connection: ProviderConnection): string {
  const token = connection.credentials.token;
  if (!token) throw new ProviderError('unauthorized', 'the connection has no scm-c access token');
  return token;
}

function organizationOf(connection: ProviderConnection): string {
  const organization = connection.externalId;
  if (!organization || !ORGANIZATION.test(organization)) {
    throw new ProviderError('not_found', 'the connection names no scm-c organisation');
  }
  return organization;
}

function mapRepository(value: unknown): ProviderRepository | null {
  const repo = asObject(value);
  const id = scalarText(repo?.id);
  const name = scalarText(repo?.name);
  const remoteUrl = scalarText(repo?.remoteUrl);
  const project = asObject(repo?.project);
  if (!repo || !id || !name || !remoteUrl) throw malformed('repository');
  // Disabled repositories cannot be cloned or read.
  if (repo.isDisabled === true) return null;
  const branch = scalarText(repo.defaultBranch);
  return {
    externalId: id,
    name,
    fullName: project && scalarText(project.name) ? `${scalarText(project.name)}/${name}` : name,
    cloneUrl: withoutUserInfo(remoteUrl),
    webUrl: scalarText(repo.webUrl),
    defaultBranch: branch ? branch.replace(/^refs\/heads\//, '') : 'main',
    private: scalarText(project?.visibility) !== 'public',
  };
}

export function createScmC(http: ProviderHttpOptions): ProviderClient {
  const get = (connection: ProviderConnection, path: string) =>
    providerRequest(
      {
        url: joinUrl(
          connection.baseUrl,
          `/${encodeURIComponent(organizationOf(connection))}${path}`,
        ),
        headers: {
          authorization: `Basic ${Buffer.from(`:${tokenOf(connection)}`).toString('base64')}`,
        },
        // Signed-out requests are answered 203 with a sign-in page instead of 401.
        unauthorizedStatuses: [203],
      },
      http,
    );

  return {
    id: 'scm-c',

    async verify(connection) {
      const response = await get(connection, `/_apis/projects?$top=1&api-version=${API_VERSION}`);
      if (!asObject(response.json)) throw malformed('project list');
      return { accountName: organizationOf(connection), suspended: false };
    },

    async listRepositories(connection) {
      const repositories: ProviderRepository[] = [];
      let continuation: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const token: string = continuation
          ? `&continuationToken=${encodeURIComponent(continuation)}`
          : '';
        const response = await get(
          connection,
          `/_apis/git/repositories?api-version=${API_VERSION}${token}`,
        );
        const body = asObject(response.json);
        if (!body || !Array.isArray(body.value)) throw malformed('repository list');
        for (const value of asArray(body.value)) {
          const repo = mapRepository(value);
          if (repo) repositories.push(repo);
        }
        const next = response.headers.get('x-ms-continuationtoken');
        if (!next || next === continuation) break;
        continuation = next;
      }
      return repositories;
    },

    async getRepository(connection, externalId) {
      if (!isUuid(externalId)) return null;
      try {
        const response = await get(
          connection,
          `/_apis/git/repositories/${externalId}?api-version=${API_VERSION}`,
        );
        return mapRepository(response.json);
      } catch (error) {
        if (error instanceof ProviderError && error.failure === 'not_found') return null;
        throw error;
      }
    },

    async cloneCredentials(connection) {
      return { username: 'driftwatch', password: tokenOf(connection) };
    },
  };
}

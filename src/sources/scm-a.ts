import { createPrivateKey, sign } from 'node:crypto';
import { joinUrl } from '../core/http-client';
import { asArray, asObject, type JsonObject, scalarText } from '../core/json-values';
import {
  MAX_PAGES,
  malformed,
  nextLink,
  type ProviderHttpOptions,
  providerRequest,
  sameOrigin,
} from './http';
import type { ProviderClient, ProviderVerification } from './provider-client';
import { type ProviderConnection, ProviderError, type ProviderRepository } from './types';

/**
 * scm-a: the hosted service with apps and installations (REST v3). The service authenticates as
 * the app (an RS256 JWT signed with the app's private key, from configuration), exchanges it for
 * a short-lived installation token, and lists what the installation was granted. Connection
 * credentials: `appId` and `privateKey` (filled in from configuration by loadProviderConnection);
 * externalId is the installation id.
 */

const API_HEADERS = {
  accept: 'application/vnd.github+json',
  'x-github-api-version': '2022-11-28',
};
const NUMERIC = /^[1-9]\d{0,18}$/;

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** The app's JWT: valid 9 minutes, issued a minute in the past to absorb clock drift. */
export function appJwt(appId: string, privateKeyPem: string, nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ iat: now - 60, exp: now + 540, iss: appId }));
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch {
    throw new ProviderError('unauthorized', 'the scm-a app private key is not a PEM private key');
  }
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key);
  return `${header}.${payload}.${base64url(signature)}`;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

// Installation tokens live an hour; reuse them until five minutes before they expire.
const tokenCache = new Map<string, CachedToken>();
const REFRESH_MARGIN_MS = 5 * 60 * 1000;

function appCredentials(connection: ProviderConnection): { appId: string; privateKey: string } {
  const appId = connection.credentials.appId;
  const privateKey = connection.credentials.privateKey;
  if (!appId || !privateKey) {
    throw new ProviderError(
      'unauthorized',
      'the scm-a app is not configured (SCM_A_APP_ID and SCM_A_APP_PRIVATE_KEY)',
    );
  }
  return { appId, privateKey };
}

function installationIdOf(connection: ProviderConnection): string {
  const id = connection.externalId;
  if (!id || !NUMERIC.test(id)) {
    throw new ProviderError('not_found', 'the connection names no scm-a installation');
  }
  return id;
}

function mapRepository(value: unknown): ProviderRepository {
  const repo = asObject(value);
  const id = scalarText(repo?.id);
  const name = scalarText(repo?.name);
  const fullName = scalarText(repo?.full_name);
  const cloneUrl = scalarText(repo?.clone_url);
  if (!repo || !id || !name || !fullName || !cloneUrl) throw malformed('repository');
  return {
    externalId: id,
    name,
    fullName,
    cloneUrl,
    webUrl: scalarText(repo.html_url),
    defaultBranch: scalarText(repo.default_branch) ?? 'main',
    private: repo.private === true,
  };
}

export function createScmA(http: ProviderHttpOptions): ProviderClient {
  const asApp = async (connection: ProviderConnection, method: 'GET' | 'POST', path: string) => {
    const { appId, privateKey } = appCredentials(connection);
    return providerRequest(
      {
        method,
        url: joinUrl(connection.baseUrl, path),
        headers: { ...API_HEADERS, authorization: `Bearer ${appJwt(appId, privateKey)}` },
      },
      http,
    );
  };

  const installationToken = async (connection: ProviderConnection): Promise<string> => {
    const installationId = installationIdOf(connection);
    const { appId } = appCredentials(connection);
    const key = `${connection.baseUrl}|${appId}|${installationId}`;
    const cached = tokenCache.get(key);
    if (cached && cached.expiresAt - REFRESH_MARGIN_MS > Date.now()) return cached.token;
    const response = await asApp(
      connection,
      'POST',
      `/app/installations/${installationId}/access_tokens`,
    );
    const body = asObject(response.json);
    const token = scalarText(body?.token);
    if (!token) throw malformed('installation token');
    const expires = Date.parse(scalarText(body?.expires_at) ?? '');
    tokenCache.set(key, {
      token,
      expiresAt: Number.isNaN(expires) ? Date.now() + 10 * 60 * 1000 : expires,
    });
    return token;
  };

  const asInstallation = async (connection: ProviderConnection, url: string) =>
    providerRequest(
      {
        url,
        headers: { ...API_HEADERS, authorization: `token ${await installationToken(connection)}` },
      },
      http,
    );

  return {
    id: 'scm-a',

    async verify(connection): Promise<ProviderVerification> {
      const installationId = installationIdOf(connection);
      const response = await asApp(connection, 'GET', `/app/installations/${installationId}`);
      const installation = asObject(response.json);
      if (!installation || scalarText(installation.id) !== installationId) {
        throw malformed('installation');
      }
      const account = asObject(installation.account);
      // Proves the installation still grants access (a suspended one is refused here).
      await installationToken(connection);
      return {
        accountName: scalarText(account?.login),
        suspended: installation.suspended_at !== null && installation.suspended_at !== undefined,
      };
    },

    async listRepositories(connection) {
      const repositories: ProviderRepository[] = [];
      let url: string | null = joinUrl(
        connection.baseUrl,
        '/installation/repositories?per_page=100',
      );
      for (let page = 0; url && page < MAX_PAGES; page++) {
        const response = await asInstallation(connection, url);
        const body: JsonObject | null = asObject(response.json);
        if (!body || !Array.isArray(body.repositories)) throw malformed('repository page');
        for (const repo of asArray(body.repositories)) repositories.push(mapRepository(repo));
        const next = nextLink(response.headers.get('link'));
        url = next ? sameOrigin(connection.baseUrl, next) : null;
      }
      return repositories;
    },

    async getRepository(connection, externalId) {
      if (!NUMERIC.test(externalId)) return null;
      try {
        const response = await asInstallation(
          connection,
          joinUrl(connection.baseUrl, `/repositories/${externalId}`),
        );
        return mapRepository(response.json);
      } catch (error) {
        if (error instanceof ProviderError && error.failure === 'not_found') return null;
        throw error;
      }
    },

    async cloneCredentials(connection) {
      return { username: 'x-access-token', password: await installationToken(connection) };
    },
  };
}

/** Forget cached installation tokens (tests that rotate fake servers). */
export function clearScmATokenCache(): void {
  tokenCache.clear();
}

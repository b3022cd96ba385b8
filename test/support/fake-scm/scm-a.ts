import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { type FakeAnswer, type FakeRequest, FakeServer, iso, pageOf } from './server';

/**
 * Fake scm-a (REST v3 with apps): app JWTs are verified with the app's public key, installation
 * tokens are issued and required, pages carry Link headers. Payload shapes follow the real
 * service's answers field for field.
 */
export interface FakeScmARepo {
  id: number;
  name: string;
  owner: string;
  private?: boolean;
  defaultBranch?: string;
  /** Where clones go (H2's end-to-end test points it at a local git repository). */
  cloneUrl?: string;
}

export interface FakeScmAInstallation {
  id: number;
  account: string;
  accountId?: number;
  suspended?: boolean;
  repositories: FakeScmARepo[];
}

const NOT_FOUND = {
  message: 'Not Found',
  documentation_url: 'https://docs.github.com/rest',
  status: '404',
};

function owner(base: string, login: string, id: number, type = 'Organization') {
  const api = `${base}/users/${login}`;
  return {
    login,
    id,
    node_id: `MDEyOk9yZ2FuaXphdGlvbj${id}`,
    avatar_url: `https://avatars.example.test/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `https://scm-a.example.test/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

export function scmARepositoryJson(base: string, repo: FakeScmARepo, ownerId = 9_100_000) {
  const fullName = `${repo.owner}/${repo.name}`;
  const api = `${base}/repos/${fullName}`;
  const html = `https://scm-a.example.test/${fullName}`;
  return {
    id: repo.id,
    node_id: `R_kgDOH${repo.id.toString(36).toUpperCase()}`,
    name: repo.name,
    full_name: fullName,
    private: repo.private ?? true,
    owner: owner(base, repo.owner, ownerId),
    html_url: html,
    description: `${repo.name} service`,
    fork: false,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: '2023-03-14T09:26:53Z',
    updated_at: '2026-11-02T17:41:08Z',
    pushed_at: '2026-11-20T08:12:44Z',
    git_url: `git://scm-a.example.test/${fullName}.git`,
    ssh_url: `git@scm-a.example.test:${fullName}.git`,
    clone_url: repo.cloneUrl ?? `${html}.git`,
    svn_url: html,
    homepage: null,
    size: 4182,
    stargazers_count: 12,
    watchers_count: 12,
    language: 'TypeScript',
    has_issues: true,
    has_projects: false,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    has_discussions: false,
    forks_count: 1,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 3,
    license: null,
    allow_forking: false,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: (repo.private ?? true) ? 'private' : 'public',
    forks: 1,
    open_issues: 3,
    watchers: 12,
    default_branch: repo.defaultBranch ?? 'main',
    permissions: { admin: false, maintain: false, push: false, triage: false, pull: true },
  };
}

export class FakeScmA extends FakeServer {
  readonly appId = '184726';
  readonly privateKeyPem: string;
  private readonly publicKeyPem: string;
  readonly installations = new Map<number, FakeScmAInstallation>();
  /** Issued installation tokens → installation id. */
  readonly tokens = new Map<string, number>();

  constructor() {
    super((request) => this.route(request), {
      unauthorized: () => ({
        status: 401,
        body: {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/rest',
          status: '401',
        },
      }),
      error: () => ({ status: 500, body: { message: 'Server Error' } }),
    });
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKeyPem = keys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    this.publicKeyPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  addInstallation(installation: FakeScmAInstallation): FakeScmAInstallation {
    this.installations.set(installation.id, installation);
    return installation;
  }

  /** Checks the app JWT exactly as the real service would: RS256, issuer, lifetime. */
  private appAuthorized(header: string | undefined): boolean {
    const token = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
    const [head, payload, signature] = token?.split('.') ?? [];
    if (!head || !payload || !signature) return false;
    const ok = verify(
      'sha256',
      Buffer.from(`${head}.${payload}`),
      this.publicKeyPem,
      Buffer.from(signature, 'base64url'),
    );
    if (!ok) return false;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const now = Math.floor(Date.now() / 1000);
    const alg = JSON.parse(Buffer.from(head, 'base64url').toString()).alg;
    return (
      alg === 'RS256' &&
      String(claims.iss) === this.appId &&
      typeof claims.exp === 'number' &&
      claims.exp > now &&
      claims.exp - Number(claims.iat) <= 600
    );
  }

  private installationOf(header: string | undefined): FakeScmAInstallation | null {
    const token = /^(?:token|Bearer) (\S+)$/.exec(header ?? '')?.[1];
    const id = token ? this.tokens.get(token) : undefined;
    return id === undefined ? null : (this.installations.get(id) ?? null);
  }

  private installationJson(installation: FakeScmAInstallation) {
    const accountId = installation.accountId ?? 9_100_000 + installation.id;
    return {
      id: installation.id,
      client_id: 'Iv23liFakeScmAClient',
      account: owner(this.url, installation.account, accountId),
      repository_selection: 'selected',
      access_tokens_url: `${this.url}/app/installations/${installation.id}/access_tokens`,
      repositories_url: `${this.url}/installation/repositories`,
      html_url: `https://scm-a.example.test/organizations/${installation.account}/settings/installations/${installation.id}`,
      app_id: Number(this.appId),
      app_slug: 'driftwatch',
      target_id: accountId,
      target_type: 'Organization',
      permissions: { contents: 'read', metadata: 'read' },
      events: ['push'],
      created_at: '2025-06-02T10:15:00.000Z',
      updated_at: '2026-10-30T14:02:11.000Z',
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: installation.suspended ? owner(this.url, 'octo-admin', 77, 'User') : null,
      suspended_at: installation.suspended ? '2026-11-01T00:00:00Z' : null,
    };
  }

  private route({ method, url, headers }: FakeRequest): FakeAnswer {
    const path = url.pathname;
    const unauthorized: FakeAnswer = {
      status: 401,
      body: {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      },
    };
    const appMatch = /^\/app\/installations\/(\d+)(\/access_tokens)?$/.exec(path);
    if (appMatch) {
      if (!this.appAuthorized(headers.authorization)) {
        return {
          status: 401,
          body: {
            message: 'A JSON web token could not be decoded',
            documentation_url: 'https://docs.github.com/rest',
            status: '401',
          },
        };
      }
      const installation = this.installations.get(Number(appMatch[1]));
      if (!installation) return { status: 404, body: NOT_FOUND };
      if (!appMatch[2] && method === 'GET') {
        return { status: 200, body: this.installationJson(installation) };
      }
      if (appMatch[2] && method === 'POST') {
        if (installation.suspended) {
          return {
            status: 403,
            body: {
              message: 'This installation has been suspended',
              documentation_url:
                'https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app',
              status: '403',
            },
          };
        }
        const token = `ghs_${randomBytes(18).toString('base64url')}`;
        this.tokens.set(token, installation.id);
        return {
          status: 201,
          body: {
            token,
            expires_at: iso(new Date(Date.now() + 3600_000)),
            permissions: { contents: 'read', metadata: 'read' },
            repository_selection: 'selected',
          },
        };
      }
      return { status: 404, body: NOT_FOUND };
    }

    if (path === '/installation/repositories' && method === 'GET') {
      const installation = this.installationOf(headers.authorization);
      if (!installation) return unauthorized;
      const size = this.pageSize(url.searchParams.get('per_page'), 30);
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const slice = pageOf(installation.repositories, page, size);
      const last = Math.max(1, Math.ceil(installation.repositories.length / size));
      const link = (n: number, rel: string) =>
        `<${this.url}/installation/repositories?per_page=${size}&page=${n}>; rel="${rel}"`;
      const links: string[] = [];
      if (page > 1) links.push(link(page - 1, 'prev'));
      if (slice.more) links.push(link(page + 1, 'next'), link(last, 'last'));
      if (page > 1) links.push(link(1, 'first'));
      return {
        status: 200,
        headers: links.length > 0 ? { link: links.join(', ') } : {},
        body: {
          total_count: installation.repositories.length,
          repository_selection: 'selected',
          repositories: slice.items.map((repo) => scmARepositoryJson(this.url, repo)),
        },
      };
    }

    const repoMatch = /^\/repositories\/(\d+)$/.exec(path);
    if (repoMatch && method === 'GET') {
      const installation = this.installationOf(headers.authorization);
      if (!installation) return unauthorized;
      const repo = installation.repositories.find((r) => r.id === Number(repoMatch[1]));
      return repo
        ? { status: 200, body: scmARepositoryJson(this.url, repo) }
        : { status: 404, body: NOT_FOUND };
    }
    return { status: 404, body: NOT_FOUND };
  }
}

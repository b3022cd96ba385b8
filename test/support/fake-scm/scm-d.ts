import {
  basicCredential,
  bearer,
  type FakeAnswer,
  type FakeRequest,
  FakeServer,
  pageOf,
} from './server';

/**
 * Fake scm-d, both flavours on one server:
 * - cloud under /2.0: workspaces of repositories, HTTP Basic (user + app password) or Bearer,
 *   pages with `pagelen`, `page`, `size` and a `next` URL;
 * - data center under /rest/api/1.0: projects and repositories, Bearer HTTP access tokens,
 *   pages with `start`, `limit`, `isLastPage`, `nextPageStart`, and the default-branch endpoint.
 */
export interface FakeScmDCloudRepo {
  uuid: string;
  slug: string;
  workspace: string;
  private?: boolean;
  mainBranch?: string | null;
  cloneUrl?: string;
}

export interface FakeScmDCloudWorkspace {
  slug: string;
  uuid: string;
  /** "user:appPassword" pairs and bearer access tokens that may read the workspace. */
  appPasswords: string[];
  tokens: string[];
  repositories: FakeScmDCloudRepo[];
}

export interface FakeScmDDcRepo {
  id: number;
  slug: string;
  project: string;
  public?: boolean;
  defaultBranch?: string | null;
  cloneUrl?: string;
}

const CLOUD_401: FakeAnswer = {
  status: 401,
  body: { type: 'error', error: { message: 'Unauthorized' } },
};
const DC_401: FakeAnswer = {
  status: 401,
  body: {
    errors: [
      {
        context: null,
        message: 'Authentication failed. Please check your credentials and try again.',
        exceptionName: 'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException',
      },
    ],
  },
};

function dcNotFound(message: string, exception: string): FakeAnswer {
  return {
    status: 404,
    body: {
      errors: [{ context: null, message, exceptionName: `com.atlassian.bitbucket.${exception}` }],
    },
  };
}

export class FakeScmD extends FakeServer {
  readonly workspaces = new Map<string, FakeScmDCloudWorkspace>();
  readonly dcTokens = new Set<string>();
  readonly dcProjects: { key: string; id: number; name: string }[] = [];
  readonly dcRepositories: FakeScmDDcRepo[] = [];

  constructor() {
    super((request) => this.route(request), {
      unauthorized: () => CLOUD_401,
      error: () => ({
        status: 500,
        body: { type: 'error', error: { message: 'Something went wrong', id: 'a91f2c' } },
      }),
    });
  }

  get cloudApiBase(): string {
    return `${this.url}/2.0`;
  }

  addWorkspace(workspace: FakeScmDCloudWorkspace): void {
    this.workspaces.set(workspace.slug, workspace);
  }

  cloudRepositoryJson(workspace: FakeScmDCloudWorkspace, repo: FakeScmDCloudRepo) {
    const api = `${this.cloudApiBase}/repositories/${workspace.slug}/${repo.slug}`;
    const html = `https://scm-d.example.test/${workspace.slug}/${repo.slug}`;
    return {
      type: 'repository',
      full_name: `${workspace.slug}/${repo.slug}`,
      links: {
        self: { href: api },
        html: { href: html },
        avatar: { href: `https://bytebucket.example.test/ravatar/${repo.uuid}?ts=default` },
        pullrequests: { href: `${api}/pullrequests` },
        commits: { href: `${api}/commits` },
        forks: { href: `${api}/forks` },
        watchers: { href: `${api}/watchers` },
        branches: { href: `${api}/refs/branches` },
        tags: { href: `${api}/refs/tags` },
        downloads: { href: `${api}/downloads` },
        source: { href: `${api}/src` },
        clone: [
          {
            name: 'https',
            href:
              repo.cloneUrl ?? `https://jdoe@scm-d.example.test/${workspace.slug}/${repo.slug}.git`,
          },
          { name: 'ssh', href: `git@scm-d.example.test:${workspace.slug}/${repo.slug}.git` },
        ],
        hooks: { href: `${api}/hooks` },
      },
      name: repo.slug,
      slug: repo.slug,
      description: '',
      scm: 'git',
      website: null,
      owner: {
        display_name: workspace.slug,
        links: {
          self: { href: `${this.cloudApiBase}/workspaces/${workspace.uuid}` },
          avatar: { href: `https://bitbucket.example.test/account/${workspace.slug}/avatar/` },
          html: { href: `https://scm-d.example.test/${workspace.uuid}/` },
        },
        type: 'team',
        uuid: workspace.uuid,
        username: workspace.slug,
      },
      workspace: {
        type: 'workspace',
        uuid: workspace.uuid,
        name: workspace.slug,
        slug: workspace.slug,
        links: {
          avatar: { href: `https://bitbucket.example.test/workspaces/${workspace.slug}/avatar/` },
          html: { href: `https://scm-d.example.test/${workspace.slug}/` },
          self: { href: `${this.cloudApiBase}/workspaces/${workspace.slug}` },
        },
      },
      is_private: repo.private ?? true,
      project: {
        type: 'project',
        key: 'PLAT',
        uuid: '{5c0a2f2e-0b3f-4e7c-9d1e-2f6b2c8f9a10}',
        name: 'Platform',
        links: {
          self: { href: `${this.cloudApiBase}/workspaces/${workspace.slug}/projects/PLAT` },
          html: { href: `https://scm-d.example.test/${workspace.slug}/workspace/projects/PLAT` },
          avatar: {
            href: `https://bitbucket.example.test/account/user/${workspace.slug}/projects/PLAT/avatar/32`,
          },
        },
      },
      fork_policy: 'no_public_forks',
      created_on: '2024-08-12T09:31:17.846291+00:00',
      updated_on: '2026-11-18T15:20:03.112843+00:00',
      size: 2_113_536,
      language: 'typescript',
      uuid: repo.uuid,
      mainbranch:
        repo.mainBranch === null ? null : { name: repo.mainBranch ?? 'main', type: 'branch' },
      override_settings: { default_merge_strategy: true, branching_model: true },
      parent: null,
      enforced_signed_commits: null,
      has_issues: false,
      has_wiki: false,
    };
  }

  dcRepositoryJson(repo: FakeScmDDcRepo) {
    const project = this.dcProjects.find((p) => p.key === repo.project);
    const browse = `${this.url}/projects/${repo.project}/repos/${repo.slug}/browse`;
    return {
      slug: repo.slug,
      id: repo.id,
      name: repo.slug,
      hierarchyId: `e3c939f9ef4a7fae272e${repo.id}`,
      scmId: 'git',
      state: 'AVAILABLE',
      statusMessage: 'Available',
      forkable: true,
      project: {
        key: repo.project,
        id: project?.id ?? 1,
        name: project?.name ?? repo.project,
        public: false,
        type: 'NORMAL',
        links: { self: [{ href: `${this.url}/projects/${repo.project}` }] },
      },
      public: repo.public ?? false,
      archived: false,
      links: {
        clone: [
          {
            href: repo.cloneUrl ?? `${this.url}/scm/${repo.project.toLowerCase()}/${repo.slug}.git`,
            name: 'http',
          },
          {
            href: `ssh://git@scm-d-dc.example.test:7999/${repo.project.toLowerCase()}/${repo.slug}.git`,
            name: 'ssh',
          },
        ],
        self: [{ href: browse }],
      },
    };
  }

  private cloudAuthorized(workspace: FakeScmDCloudWorkspace, header: string | undefined): boolean {
    const basic = basicCredential(header);
    if (basic) return workspace.appPasswords.includes(`${basic.username}:${basic.password}`);
    const token = bearer(header);
    return token !== null && workspace.tokens.includes(token);
  }

  private route(request: FakeRequest): FakeAnswer {
    if (request.method !== 'GET') return { status: 405, body: { error: 'method not allowed' } };
    const path = request.url.pathname;
    if (path.startsWith('/2.0/')) return this.cloud(request, path.slice(4));
    if (path.startsWith('/rest/api/1.0/')) return this.dataCenter(request, path.slice(13));
    return { status: 404, body: { type: 'error', error: { message: 'Resource not found' } } };
  }

  private cloud({ url, headers }: FakeRequest, path: string): FakeAnswer {
    const match = /^\/repositories\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    const workspace = match ? this.workspaces.get(decodeURIComponent(match[1] ?? '')) : undefined;
    if (!match || !workspace) {
      return { status: 404, body: { type: 'error', error: { message: 'Resource not found' } } };
    }
    if (!this.cloudAuthorized(workspace, headers.authorization)) return CLOUD_401;
    if (match[2]) {
      const wanted = decodeURIComponent(match[2]).toLowerCase();
      const repo = workspace.repositories.find(
        (r) => r.slug === wanted || r.uuid.toLowerCase() === wanted,
      );
      return repo
        ? { status: 200, body: this.cloudRepositoryJson(workspace, repo) }
        : {
            status: 404,
            body: {
              type: 'error',
              error: { message: `Repository ${workspace.slug}/${match[2]} not found` },
            },
          };
    }
    const size = this.pageSize(url.searchParams.get('pagelen'), 10);
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const sorted = [...workspace.repositories].sort((a, b) => a.slug.localeCompare(b.slug));
    const slice = pageOf(sorted, page, size);
    const next = new URL(url);
    next.searchParams.set('page', String(page + 1));
    return {
      status: 200,
      body: {
        pagelen: size,
        size: sorted.length,
        values: slice.items.map((r) => this.cloudRepositoryJson(workspace, r)),
        page,
        ...(slice.more ? { next: next.toString() } : {}),
        ...(page > 1
          ? { previous: `${this.cloudApiBase}${path}?pagelen=${size}&page=${page - 1}` }
          : {}),
      },
    };
  }

  private dcPage<T>(url: URL, items: T[], map: (item: T) => unknown): FakeAnswer {
    const limit = this.pageSize(url.searchParams.get('limit'), 25);
    const start = Math.max(0, Number(url.searchParams.get('start') ?? 0) || 0);
    const values = items.slice(start, start + limit);
    const isLastPage = start + limit >= items.length;
    return {
      status: 200,
      body: {
        size: values.length,
        limit,
        isLastPage,
        values: values.map(map),
        start,
        ...(isLastPage ? {} : { nextPageStart: start + values.length }),
      },
    };
  }

  private dataCenter({ url, headers }: FakeRequest, path: string): FakeAnswer {
    const token = bearer(headers.authorization);
    if (!token || !this.dcTokens.has(token)) return DC_401;
    if (path === '/projects') {
      return this.dcPage(url, this.dcProjects, (p) => ({
        key: p.key,
        id: p.id,
        name: p.name,
        description: `${p.name} repositories`,
        public: false,
        type: 'NORMAL',
        links: { self: [{ href: `${this.url}/projects/${p.key}` }] },
      }));
    }
    const repos = /^\/projects\/([^/]+)\/repos$/.exec(path);
    if (repos) {
      const key = decodeURIComponent(repos[1] ?? '');
      if (!this.dcProjects.some((p) => p.key === key)) {
        return dcNotFound(`Project ${key} does not exist.`, 'project.NoSuchProjectException');
      }
      const list = this.dcRepositories.filter((r) => r.project === key);
      return this.dcPage(url, list, (r) => this.dcRepositoryJson(r));
    }
    const one = /^\/projects\/([^/]+)\/repos\/([^/]+)(\/branches\/default)?$/.exec(path);
    if (one) {
      const key = decodeURIComponent(one[1] ?? '');
      const slug = decodeURIComponent(one[2] ?? '');
      const repo = this.dcRepositories.find((r) => r.project === key && r.slug === slug);
      if (!repo) {
        return dcNotFound(
          `Repository ${key}/${slug} does not exist.`,
          'repository.NoSuchRepositoryException',
        );
      }
      if (!one[3]) return { status: 200, body: this.dcRepositoryJson(repo) };
      if (repo.defaultBranch === null) {
        return dcNotFound(
          `Repository ${key}/${slug} has no default branch.`,
          'repository.NoDefaultBranchException',
        );
      }
      const branch = repo.defaultBranch ?? 'master';
      return {
        status: 200,
        body: {
          id: `refs/heads/${branch}`,
          displayId: branch,
          type: 'BRANCH',
          latestCommit: '8d51122def5632836d1cb1026e879069e10a1e13',
          latestChangeset: '8d51122def5632836d1cb1026e879069e10a1e13',
          isDefault: true,
        },
      };
    }
    return dcNotFound('The requested resource does not exist.', 'NoSuchResourceException');
  }
}

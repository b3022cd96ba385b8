import { basicCredential, type FakeAnswer, type FakeRequest, FakeServer } from './server';

/**
 * Fake scm-c: organisations with projects and git repositories under /{org}/_apis/..., a PAT in
 * HTTP Basic (any user name), api-version required, and the real answer shapes ({count, value}).
 */
export interface FakeScmCRepo {
  id: string;
  name: string;
  project: string;
  defaultBranch?: string | null;
  disabled?: boolean;
  cloneUrl?: string;
}

export interface FakeScmCOrganization {
  name: string;
  /** PATs that may read this organisation. */
  tokens: string[];
  projects: { id: string; name: string; visibility?: 'private' | 'public' }[];
  repositories: FakeScmCRepo[];
}

function vssError(status: number, message: string, typeKey: string): FakeAnswer {
  return {
    status,
    body: {
      $id: '1',
      innerException: null,
      message,
      typeName: `Microsoft.TeamFoundation.Git.Server.${typeKey}, Microsoft.TeamFoundation.Git.Server`,
      typeKey,
      errorCode: 0,
      eventId: 3000,
    },
  };
}

export class FakeScmC extends FakeServer {
  readonly organizations = new Map<string, FakeScmCOrganization>();

  constructor() {
    super((request) => this.route(request), {
      // The real service answers a bad PAT with 401 and an HTML body.
      unauthorized: () => ({
        status: 401,
        raw: true,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><head><title>Access Denied</title></head><body>401 - Unauthorized</body></html>',
      }),
      error: () =>
        vssError(500, 'TF246017: The service is unavailable.', 'ServiceUnavailableException'),
    });
  }

  addOrganization(organization: FakeScmCOrganization): void {
    this.organizations.set(organization.name, organization);
  }

  private projectJson(org: FakeScmCOrganization, projectName: string) {
    const project = org.projects.find((p) => p.name === projectName);
    const id = project?.id ?? '00000000-0000-0000-0000-000000000000';
    return {
      id,
      name: projectName,
      description: `${projectName} team project`,
      url: `${this.url}/${org.name}/_apis/projects/${id}`,
      state: 'wellFormed',
      revision: 411,
      visibility: project?.visibility ?? 'private',
      lastUpdateTime: '2026-09-30T12:44:10.113Z',
    };
  }

  repositoryJson(org: FakeScmCOrganization, repo: FakeScmCRepo) {
    const web = `https://scm-c.example.test/${org.name}/${encodeURIComponent(repo.project)}/_git/${encodeURIComponent(repo.name)}`;
    return {
      id: repo.id,
      name: repo.name,
      url: `${this.url}/${org.name}/_apis/git/repositories/${repo.id}`,
      project: this.projectJson(org, repo.project),
      ...(repo.defaultBranch === null
        ? {}
        : { defaultBranch: `refs/heads/${repo.defaultBranch ?? 'main'}` }),
      size: 1_482_113,
      remoteUrl:
        repo.cloneUrl ??
        `https://${org.name}@scm-c.example.test/${org.name}/${encodeURIComponent(repo.project)}/_git/${encodeURIComponent(repo.name)}`,
      sshUrl: `git@ssh.scm-c.example.test:v3/${org.name}/${encodeURIComponent(repo.project)}/${encodeURIComponent(repo.name)}`,
      webUrl: web,
      isDisabled: repo.disabled ?? false,
      isInMaintenance: false,
    };
  }

  private route({ method, url, headers }: FakeRequest): FakeAnswer {
    const parts = url.pathname.split('/').filter(Boolean);
    const org = this.organizations.get(decodeURIComponent(parts[0] ?? ''));
    const credential = basicCredential(headers.authorization);
    if (!org) {
      return vssError(
        404,
        `TF400813: The organization '${parts[0]}' could not be found.`,
        'OrganizationNotFoundException',
      );
    }
    if (!credential || !org.tokens.includes(credential.password)) {
      return {
        status: 401,
        raw: true,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><head><title>Access Denied</title></head><body>401 - Unauthorized</body></html>',
      };
    }
    if (method !== 'GET') return vssError(405, 'Method not allowed', 'MethodNotAllowed');
    if (url.searchParams.get('api-version') !== '7.1') {
      return vssError(
        400,
        'No api-version was supplied for the "GET" request. The version must be supplied either as part of the Accept header or as a query parameter.',
        'VssVersionNotSpecifiedException',
      );
    }
    const rest = `/${parts.slice(1).join('/')}`;
    if (rest === '/_apis/projects') {
      const top = Number(url.searchParams.get('$top') ?? org.projects.length);
      const value = org.projects.slice(0, top).map((p) => this.projectJson(org, p.name));
      return { status: 200, body: { count: value.length, value } };
    }
    if (rest === '/_apis/git/repositories') {
      const value = org.repositories.map((r) => this.repositoryJson(org, r));
      return { status: 200, body: { value, count: value.length } };
    }
    const match = /^\/_apis\/git\/repositories\/([^/]+)$/.exec(rest);
    if (match) {
      const repo = org.repositories.find((r) => r.id === match[1]?.toLowerCase());
      return repo
        ? { status: 200, body: this.repositoryJson(org, repo) }
        : vssError(
            404,
            `TF401019: The Git repository with name or identifier ${match[1]} does not exist or you do not have permissions for the operation you are attempting.`,
            'GitRepositoryNotFoundException',
          );
    }
    return vssError(404, 'The resource cannot be found.', 'NotFound');
  }
}

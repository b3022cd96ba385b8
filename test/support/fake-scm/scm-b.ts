import { type FakeAnswer, type FakeRequest, FakeServer, pageOf } from './server';

/**
 * Fake scm-b (REST v4 under /api/v4): PRIVATE-TOKEN authentication, /user, membership project
 * lists paged with X-Page / X-Next-Page / X-Total headers and a Link header, /projects/{id}.
 */
export interface FakeScmBProject {
  id: number;
  /** group/subgroup path. */
  namespace: string;
  path: string;
  visibility?: 'private' | 'internal' | 'public';
  defaultBranch?: string | null;
  cloneUrl?: string;
}

export interface FakeScmBUser {
  id: number;
  username: string;
  name: string;
  /** Project ids the user is a member of. */
  projects: number[];
}

const UNAUTHORIZED: FakeAnswer = { status: 401, body: { message: '401 Unauthorized' } };

export function scmBProjectJson(apiBase: string, project: FakeScmBProject) {
  const web = `https://scm-b.example.test/${project.namespace}/${project.path}`;
  const topGroup = project.namespace.split('/')[0] ?? project.namespace;
  const namespaceName = project.namespace.split('/').at(-1) ?? project.namespace;
  return {
    id: project.id,
    description: `${project.path} service`,
    name: project.path,
    name_with_namespace: `${project.namespace.split('/').join(' / ')} / ${project.path}`,
    path: project.path,
    path_with_namespace: `${project.namespace}/${project.path}`,
    created_at: '2024-02-19T11:04:36.211Z',
    default_branch: project.defaultBranch === undefined ? 'main' : project.defaultBranch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@scm-b.example.test:${project.namespace}/${project.path}.git`,
    http_url_to_repo: project.cloneUrl ?? `${web}.git`,
    web_url: web,
    readme_url: `${web}/-/blob/main/README.md`,
    forks_count: 0,
    avatar_url: null,
    star_count: 2,
    last_activity_at: '2026-11-19T16:22:05.402Z',
    namespace: {
      id: 6_300_000 + project.id,
      name: namespaceName,
      path: namespaceName,
      kind: 'group',
      full_path: project.namespace,
      parent_id: project.namespace.includes('/') ? 6_200_001 : null,
      avatar_url: null,
      web_url: `https://scm-b.example.test/groups/${project.namespace}`,
    },
    container_registry_image_prefix: `registry.scm-b.example.test/${project.namespace}/${project.path}`,
    _links: {
      self: `${apiBase}/projects/${project.id}`,
      issues: `${apiBase}/projects/${project.id}/issues`,
      merge_requests: `${apiBase}/projects/${project.id}/merge_requests`,
      repo_branches: `${apiBase}/projects/${project.id}/repository/branches`,
      labels: `${apiBase}/projects/${project.id}/labels`,
      events: `${apiBase}/projects/${project.id}/events`,
      members: `${apiBase}/projects/${project.id}/members`,
      cluster_agents: `${apiBase}/projects/${project.id}/cluster_agents`,
    },
    packages_enabled: true,
    empty_repo: project.defaultBranch === null,
    archived: false,
    visibility: project.visibility ?? 'private',
    resolve_outdated_diff_discussions: false,
    container_registry_enabled: true,
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: false,
    jobs_enabled: true,
    snippets_enabled: false,
    service_desk_enabled: false,
    can_create_merge_request_in: true,
    issues_access_level: 'enabled',
    repository_access_level: 'enabled',
    merge_requests_access_level: 'enabled',
    forking_access_level: 'enabled',
    wiki_access_level: 'disabled',
    builds_access_level: 'enabled',
    snippets_access_level: 'disabled',
    pages_access_level: 'private',
    analytics_access_level: 'enabled',
    container_registry_access_level: 'enabled',
    security_and_compliance_access_level: 'private',
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: true,
    lfs_enabled: true,
    creator_id: 1_100_222,
    import_status: 'none',
    open_issues_count: 4,
    ci_default_git_depth: 20,
    public_jobs: true,
    build_timeout: 3600,
    auto_cancel_pending_pipelines: 'enabled',
    ci_config_path: '',
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: false,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    printing_merge_request_link_enabled: true,
    merge_method: 'merge',
    squash_option: 'default_off',
    autoclose_referenced_issues: true,
    permissions: {
      project_access: { access_level: 30, notification_level: 3 },
      group_access: { access_level: 30, notification_level: 3 },
    },
    group_runners_enabled: true,
    top_level_group: topGroup,
  };
}

export class FakeScmB extends FakeServer {
  /** token → user */
  readonly users = new Map<string, FakeScmBUser>();
  readonly projects = new Map<number, FakeScmBProject>();

  constructor() {
    super((request) => this.route(request), {
      unauthorized: () => UNAUTHORIZED,
      error: () => ({ status: 500, body: { message: '500 Internal Server Error' } }),
    });
  }

  get apiBase(): string {
    return `${this.url}/api/v4`;
  }

  addUser(token: string, user: FakeScmBUser): void {
    this.users.set(token, user);
  }

  addProject(project: FakeScmBProject): void {
    this.projects.set(project.id, project);
  }

  private route({ method, url, headers }: FakeRequest): FakeAnswer {
    const token = headers['private-token'];
    const user = typeof token === 'string' ? this.users.get(token) : undefined;
    if (!user) return UNAUTHORIZED;
    const path = url.pathname.replace(/^\/api\/v4/, '');
    if (method !== 'GET') return { status: 405, body: { message: '405 Method Not Allowed' } };
    if (path === '/user') {
      return {
        status: 200,
        body: {
          id: user.id,
          username: user.username,
          name: user.name,
          state: 'active',
          locked: false,
          avatar_url: `https://secure.gravatar.example.test/avatar/${user.id}?s=80&d=identicon`,
          web_url: `https://scm-b.example.test/${user.username}`,
          created_at: '2021-05-11T08:10:44.012Z',
          bio: '',
          location: '',
          public_email: null,
          skype: '',
          linkedin: '',
          twitter: '',
          discord: '',
          website_url: '',
          organization: '',
          job_title: '',
          pronouns: null,
          bot: false,
          work_information: null,
          local_time: null,
          last_sign_in_at: '2026-11-20T07:55:12.881Z',
          confirmed_at: '2021-05-11T08:12:01.412Z',
          last_activity_on: '2026-11-21',
          email: `${user.username}@example.test`,
          theme_id: 3,
          color_scheme_id: 1,
          projects_limit: 100000,
          current_sign_in_at: '2026-11-21T06:02:33.100Z',
          identities: [],
          can_create_group: true,
          can_create_project: true,
          two_factor_enabled: true,
          external: false,
          private_profile: false,
          commit_email: `${user.username}@example.test`,
        },
      };
    }
    if (path === '/projects') {
      if (url.searchParams.get('membership') !== 'true') {
        return { status: 400, body: { error: 'this fake serves membership=true lists only' } };
      }
      const visible = user.projects
        .map((id) => this.projects.get(id))
        .filter((p): p is FakeScmBProject => p !== undefined)
        .sort((a, b) => a.id - b.id);
      const size = this.pageSize(url.searchParams.get('per_page'), 20);
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const slice = pageOf(visible, page, size);
      const totalPages = Math.max(1, Math.ceil(visible.length / size));
      const link = (n: number, rel: string) => {
        const next = new URL(url);
        next.searchParams.set('page', String(n));
        return `<${next}>; rel="${rel}"`;
      };
      return {
        status: 200,
        headers: {
          'x-page': String(page),
          'x-per-page': String(size),
          'x-next-page': slice.more ? String(page + 1) : '',
          'x-prev-page': page > 1 ? String(page - 1) : '',
          'x-total': String(visible.length),
          'x-total-pages': String(totalPages),
          link: [
            ...(slice.more ? [link(page + 1, 'next')] : []),
            link(1, 'first'),
            link(totalPages, 'last'),
          ].join(', '),
        },
        body: slice.items.map((p) => scmBProjectJson(this.apiBase, p)),
      };
    }
    const match = /^\/projects\/(\d+)$/.exec(path);
    if (match) {
      const id = Number(match[1]);
      const project = user.projects.includes(id) ? this.projects.get(id) : undefined;
      return project
        ? { status: 200, body: scmBProjectJson(this.apiBase, project) }
        : { status: 404, body: { message: '404 Project Not Found' } };
    }
    return { status: 404, body: { error: '404 Not Found' } };
  }
}

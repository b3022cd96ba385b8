import { createHmac, randomUUID } from 'node:crypto';

/**
 * Push deliveries as the four providers send them: the native JSON payload (full field sets)
 * and the identity and event headers of the Authentication section's table. Each builder
 * returns `{ headers, payload }` with `payload` the exact raw body to send (signatures are over
 * these bytes), ready for `app.inject` or a real HTTP client.
 */
export interface Delivery {
  headers: Record<string, string>;
  payload: string;
}

const ZERO_SHA = '0000000000000000000000000000000000000000';
const hmacHex = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body, 'utf8').digest('hex');

// --- scm-a ---------------------------------------------------------------------------------

export interface ScmAPushOptions {
  installationId: number | null;
  repository: {
    id: number;
    owner: string;
    name: string;
    defaultBranch?: string;
    private?: boolean;
  };
  /** Branch name (refs/heads/ is added). */
  branch: string;
  after?: string;
  deleted?: boolean;
}

export function scmAPushPayload(options: ScmAPushOptions): Record<string, unknown> {
  const { repository: repo } = options;
  const fullName = `${repo.owner}/${repo.name}`;
  const html = `https://scm-a.example.test/${fullName}`;
  const after = options.deleted
    ? ZERO_SHA
    : (options.after ?? 'e5a1f0c2b7d94c1a8f3e6b2d9c0a7f4e1b8d3c6a');
  const sender = {
    login: 'jdoe',
    id: 5_120_044,
    node_id: 'MDQ6VXNlcjUxMjAwNDQ=',
    avatar_url: 'https://avatars.example.test/u/5120044?v=4',
    gravatar_id: '',
    url: 'https://api.scm-a.example.test/users/jdoe',
    html_url: 'https://scm-a.example.test/jdoe',
    type: 'User',
    user_view_type: 'public',
    site_admin: false,
  };
  const commit = {
    id: after,
    tree_id: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    distinct: true,
    message: 'Bump lodash from 4.17.20 to 4.17.21',
    timestamp: '2026-11-21T09:14:02+01:00',
    url: `${html}/commit/${after}`,
    author: { name: 'Jane Doe', email: 'jane@example.test', username: 'jdoe' },
    committer: { name: 'Jane Doe', email: 'jane@example.test', username: 'jdoe' },
    added: [],
    removed: [],
    modified: ['package-lock.json', 'package.json'],
  };
  return {
    ref: `refs/heads/${options.branch}`,
    before: '9c2f7d1e4b8a3c6f0e5d2a7b1c4f8e3d6a9b2c5f',
    after,
    repository: {
      id: repo.id,
      node_id: `R_kgDOH${repo.id.toString(36).toUpperCase()}`,
      name: repo.name,
      full_name: fullName,
      private: repo.private ?? true,
      owner: {
        name: repo.owner,
        email: null,
        login: repo.owner,
        id: 9_100_000,
        node_id: 'MDEyOk9yZ2FuaXphdGlvbjkxMDAwMDA=',
        avatar_url: 'https://avatars.example.test/u/9100000?v=4',
        gravatar_id: '',
        url: `https://api.scm-a.example.test/users/${repo.owner}`,
        html_url: `https://scm-a.example.test/${repo.owner}`,
        type: 'Organization',
        user_view_type: 'public',
        site_admin: false,
      },
      html_url: html,
      description: `${repo.name} service`,
      fork: false,
      url: html,
      created_at: 1_678_786_013,
      updated_at: '2026-11-02T17:41:08Z',
      pushed_at: 1_763_712_842,
      git_url: `git://scm-a.example.test/${fullName}.git`,
      ssh_url: `git@scm-a.example.test:${fullName}.git`,
      clone_url: `${html}.git`,
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
      stargazers: 12,
      master_branch: repo.defaultBranch ?? 'main',
      organization: repo.owner,
      custom_properties: {},
    },
    pusher: { name: 'jdoe', email: 'jane@example.test' },
    organization: {
      login: repo.owner,
      id: 9_100_000,
      node_id: 'MDEyOk9yZ2FuaXphdGlvbjkxMDAwMDA=',
      url: `https://api.scm-a.example.test/orgs/${repo.owner}`,
      repos_url: `https://api.scm-a.example.test/orgs/${repo.owner}/repos`,
      hooks_url: `https://api.scm-a.example.test/orgs/${repo.owner}/hooks`,
      avatar_url: 'https://avatars.example.test/u/9100000?v=4',
      description: null,
    },
    ...(options.installationId === null
      ? {}
      : {
          installation: {
            id: options.installationId,
            node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${options.installationId}`,
          },
        }),
    sender,
    created: false,
    deleted: options.deleted ?? false,
    forced: false,
    base_ref: null,
    compare: `${html}/compare/9c2f7d1e4b8a...${after.slice(0, 12)}`,
    commits: options.deleted ? [] : [commit],
    head_commit: options.deleted ? null : commit,
  };
}

export const scmAPingPayload = (installationId: number) => ({
  zen: 'Keep it logically awesome.',
  hook_id: 481_220_117,
  hook: {
    type: 'App',
    id: 481_220_117,
    name: 'web',
    active: true,
    events: ['push'],
    config: {
      content_type: 'json',
      insecure_ssl: '0',
      url: 'https://driftwatch.example.test/api/v1/webhooks/scm-a',
    },
    updated_at: '2026-11-21T08:00:00Z',
    created_at: '2026-11-21T08:00:00Z',
    app_id: 184_726,
    deliveries_url: 'https://api.scm-a.example.test/app/hook/deliveries',
  },
  installation: { id: installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u' },
});

export function signScmA(secret: string, payload: string): string {
  return `sha256=${hmacHex(secret, payload)}`;
}

export function scmADelivery(secret: string, event: string, body: unknown): Delivery {
  const payload = JSON.stringify(body);
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'ScmA-Hookshot/7e1c2d4',
      'x-scm-a-event': event,
      'x-scm-a-delivery': randomUUID(),
      'x-scm-a-hook-id': '481220117',
      'x-hub-signature-256': signScmA(secret, payload),
    },
  };
}

export const signScmAPush = (secret: string, body: unknown) => scmADelivery(secret, 'push', body);

// --- scm-b ---------------------------------------------------------------------------------

export interface ScmBPushOptions {
  projectId: number;
  pathWithNamespace: string;
  branch: string;
  defaultBranch?: string;
  after?: string;
  deleted?: boolean;
}

export function scmBPushPayload(options: ScmBPushOptions): Record<string, unknown> {
  const web = `https://scm-b.example.test/${options.pathWithNamespace}`;
  const name = options.pathWithNamespace.split('/').at(-1) ?? options.pathWithNamespace;
  const after = options.deleted
    ? ZERO_SHA
    : (options.after ?? 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7');
  const commits = options.deleted
    ? []
    : [
        {
          id: after,
          message: 'Update requirements.txt\n',
          title: 'Update requirements.txt',
          timestamp: '2026-11-21T09:14:02+00:00',
          url: `${web}/-/commit/${after}`,
          author: { name: 'Jane Doe', email: 'jane@example.test' },
          added: [],
          modified: ['requirements.txt'],
          removed: [],
        },
      ];
  return {
    object_kind: 'push',
    event_name: 'push',
    before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
    after,
    ref: `refs/heads/${options.branch}`,
    ref_protected: true,
    checkout_sha: options.deleted ? null : after,
    message: null,
    user_id: 1_100_222,
    user_name: 'Jane Doe',
    user_username: 'jdoe',
    user_email: '',
    user_avatar: 'https://secure.gravatar.example.test/avatar/1100222?s=80&d=identicon',
    project_id: options.projectId,
    project: {
      id: options.projectId,
      name,
      description: `${name} service`,
      web_url: web,
      avatar_url: null,
      git_ssh_url: `git@scm-b.example.test:${options.pathWithNamespace}.git`,
      git_http_url: `${web}.git`,
      namespace: options.pathWithNamespace.split('/').slice(0, -1).join('/'),
      visibility_level: 0,
      path_with_namespace: options.pathWithNamespace,
      default_branch: options.defaultBranch ?? 'main',
      ci_config_path: '',
      homepage: web,
      url: `git@scm-b.example.test:${options.pathWithNamespace}.git`,
      ssh_url: `git@scm-b.example.test:${options.pathWithNamespace}.git`,
      http_url: `${web}.git`,
    },
    commits,
    total_commits_count: commits.length,
    push_options: {},
    repository: {
      name,
      url: `git@scm-b.example.test:${options.pathWithNamespace}.git`,
      description: `${name} service`,
      homepage: web,
      git_http_url: `${web}.git`,
      git_ssh_url: `git@scm-b.example.test:${options.pathWithNamespace}.git`,
      visibility_level: 0,
    },
  };
}

export function scmBDelivery(token: string, event: string, body: unknown): Delivery {
  return {
    payload: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'ScmB/17.5.1',
      'x-scm-b-event': event,
      'x-scm-b-token': token,
      'x-scm-b-instance': 'https://scm-b.example.test',
      'x-scm-b-event-uuid': randomUUID(),
    },
  };
}

export const scmBPush = (token: string, body: unknown) => scmBDelivery(token, 'Push Hook', body);

// --- scm-c ---------------------------------------------------------------------------------

export interface ScmCPushOptions {
  organization: string;
  project: { id: string; name: string };
  repository: { id: string; name: string; defaultBranch?: string };
  branch: string;
  after?: string;
  deleted?: boolean;
}

export function scmCPushPayload(options: ScmCPushOptions): Record<string, unknown> {
  const { organization: org, project, repository: repo } = options;
  const api = `https://scm-c.example.test/${org}/_apis`;
  const after = options.deleted
    ? ZERO_SHA
    : (options.after ?? '33b55f7cb7e7e245323987634f960cf4a6e6bc74');
  const pushedBy = {
    displayName: 'Jane Doe',
    url: `https://spsprodweu5.vssps.example.test/A1/_apis/Identities/8c8c7d32-6b1b-47f4-b2e9-30b477b5ab3d`,
    id: '8c8c7d32-6b1b-47f4-b2e9-30b477b5ab3d',
    uniqueName: 'jane@example.test',
    imageUrl: `https://scm-c.example.test/${org}/_api/_common/identityImage?id=8c8c7d32`,
    descriptor: 'aad.OGM4YzdkMzItNmIxYi03ZjQ0LWIyZTktMzBiNDc3YjVhYjNk',
  };
  return {
    subscriptionId: '6f5a4b3c-2d1e-4f0a-9b8c-7d6e5f4a3b2c',
    notificationId: 12,
    id: '03c164c2-8912-4d5e-8009-3707d5f83734',
    eventType: 'git.push',
    publisherId: 'tfs',
    message: {
      text: `Jane Doe pushed updates to ${repo.name}:${options.branch}.`,
      html: `Jane Doe pushed updates to ${repo.name}:${options.branch}.`,
      markdown: `Jane Doe pushed updates to \`${repo.name}\`:\`${options.branch}\`.`,
    },
    detailedMessage: {
      text: `Jane Doe pushed a commit to ${repo.name}:${options.branch}.\n - Bump Newtonsoft.Json ${after.slice(0, 8)}`,
      html: `Jane Doe pushed a commit to ${repo.name}:${options.branch}.`,
      markdown: `Jane Doe pushed a commit to \`${repo.name}\`:\`${options.branch}\`.`,
    },
    resource: {
      commits: options.deleted
        ? []
        : [
            {
              commitId: after,
              author: {
                name: 'Jane Doe',
                email: 'jane@example.test',
                date: '2026-11-21T09:14:02Z',
              },
              committer: {
                name: 'Jane Doe',
                email: 'jane@example.test',
                date: '2026-11-21T09:14:02Z',
              },
              comment: 'Bump Newtonsoft.Json',
              url: `${api}/git/repositories/${repo.id}/commits/${after}`,
            },
          ],
      refUpdates: [
        {
          name: `refs/heads/${options.branch}`,
          oldObjectId: 'aad331d8d3b131fa9ae03cf5e53965b51942618a',
          newObjectId: after,
        },
      ],
      repository: {
        id: repo.id,
        name: repo.name,
        url: `${api}/git/repositories/${repo.id}`,
        project: {
          id: project.id,
          name: project.name,
          url: `${api}/projects/${project.id}`,
          state: 'wellFormed',
          visibility: 'private',
          lastUpdateTime: '0001-01-01T00:00:00',
        },
        defaultBranch: `refs/heads/${repo.defaultBranch ?? 'main'}`,
        remoteUrl: `https://scm-c.example.test/${org}/${project.name}/_git/${repo.name}`,
      },
      pushedBy,
      pushId: 14,
      date: '2026-11-21T09:14:05.3303571Z',
      url: `${api}/git/repositories/${repo.id}/pushes/14`,
    },
    resourceVersion: '1.0',
    resourceContainers: {
      collection: {
        id: 'c12d0eb8-e382-443b-9f9c-c52cba5014c2',
        baseUrl: `https://scm-c.example.test/${org}/`,
      },
      account: {
        id: 'f844ec47-a9db-4511-8281-8b63f4eaf94e',
        baseUrl: `https://scm-c.example.test/${org}/`,
      },
      project: { id: project.id, baseUrl: `https://scm-c.example.test/${org}/` },
    },
    createdDate: '2026-11-21T09:14:06.0201224Z',
  };
}

/** scm-c sends the basic credential configured on the service-hook subscription. */
export function scmCDelivery(secret: string, body: unknown, username = 'driftwatch'): Delivery {
  return {
    payload: JSON.stringify(body),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}`,
      'request-id': `|${randomUUID()}.`,
    },
  };
}

// --- scm-d ---------------------------------------------------------------------------------

export interface ScmDCloudPushOptions {
  workspace: { slug: string; uuid: string };
  repository: { uuid: string; slug: string };
  branch: string;
  after?: string;
  deleted?: boolean;
}

export function scmDCloudPushPayload(options: ScmDCloudPushOptions): Record<string, unknown> {
  const { workspace: ws, repository: repo } = options;
  const html = `https://scm-d.example.test/${ws.slug}/${repo.slug}`;
  const after = options.after ?? '709d658dc5b6d6afcd46049c2f332ee3f515a67d';
  const actor = {
    display_name: 'Jane Doe',
    links: {
      self: {
        href: 'https://api.scm-d.example.test/2.0/users/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D',
      },
      avatar: { href: 'https://avatar-management.example.test/initials/JD-3.png' },
      html: { href: 'https://scm-d.example.test/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D/' },
    },
    type: 'user',
    uuid: '{d301aafa-d676-4ee0-88be-962be7417567}',
    account_id: '557058:ba8948b2-49da-43a9-9e8b-e7249b8e324a',
    nickname: 'jdoe',
  };
  const branchState = (hash: string) => ({
    name: options.branch,
    target: {
      type: 'commit',
      hash,
      date: '2026-11-21T09:14:02+00:00',
      author: { type: 'author', raw: 'Jane Doe <jane@example.test>', user: actor },
      message: 'Bump requests to 2.32.3\n',
      summary: {
        type: 'rendered',
        raw: 'Bump requests to 2.32.3\n',
        markup: 'markdown',
        html: '<p>Bump requests to 2.32.3</p>',
      },
      links: {
        self: {
          href: `https://api.scm-d.example.test/2.0/repositories/${ws.slug}/${repo.slug}/commit/${hash}`,
        },
        html: { href: `${html}/commits/${hash}` },
      },
      parents: [],
      rendered: {},
      properties: {},
    },
    links: {
      commits: {
        href: `https://api.scm-d.example.test/2.0/repositories/${ws.slug}/${repo.slug}/commits/${options.branch}`,
      },
      self: {
        href: `https://api.scm-d.example.test/2.0/repositories/${ws.slug}/${repo.slug}/refs/branches/${options.branch}`,
      },
      html: { href: `${html}/branch/${options.branch}` },
    },
    type: 'branch',
    merge_strategies: ['merge_commit', 'squash', 'fast_forward'],
    default_merge_strategy: 'merge_commit',
    sync_strategies: ['merge_commit', 'rebase'],
  });
  return {
    push: {
      changes: [
        {
          old: branchState('1e65c05c1d5171631d92438a13901ca7dae9618c'),
          new: options.deleted ? null : branchState(after),
          truncated: false,
          created: false,
          forced: false,
          closed: options.deleted ?? false,
          links: {
            commits: {
              href: `https://api.scm-d.example.test/2.0/repositories/${ws.slug}/${repo.slug}/commits?include=${after}`,
            },
            diff: {
              href: `https://api.scm-d.example.test/2.0/repositories/${ws.slug}/${repo.slug}/diff/${after}..1e65c05c1d51`,
            },
            html: { href: `${html}/branches/compare/${after}..1e65c05c1d51` },
          },
          commits: [],
        },
      ],
    },
    repository: {
      type: 'repository',
      full_name: `${ws.slug}/${repo.slug}`,
      links: {
        self: { href: `https://api.scm-d.example.test/2.0/repositories/${ws.slug}/${repo.slug}` },
        html: { href: html },
        avatar: { href: `https://bytebucket.example.test/ravatar/${repo.uuid}?ts=default` },
      },
      name: repo.slug,
      scm: 'git',
      website: null,
      owner: { display_name: ws.slug, type: 'team', uuid: ws.uuid, username: ws.slug },
      workspace: {
        type: 'workspace',
        uuid: ws.uuid,
        name: ws.slug,
        slug: ws.slug,
        links: {
          avatar: { href: `https://bitbucket.example.test/workspaces/${ws.slug}/avatar/` },
          html: { href: `https://scm-d.example.test/${ws.slug}/` },
          self: { href: `https://api.scm-d.example.test/2.0/workspaces/${ws.slug}` },
        },
      },
      is_private: true,
      project: {
        type: 'project',
        key: 'PLAT',
        uuid: '{5c0a2f2e-0b3f-4e7c-9d1e-2f6b2c8f9a10}',
        name: 'Platform',
      },
      uuid: repo.uuid,
      parent: null,
    },
    actor,
  };
}

export function scmDCloudDelivery(secret: string, eventKey: string, body: unknown): Delivery {
  const payload = JSON.stringify(body);
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'ScmD-Webhooks/2.0',
      'x-event-key': eventKey,
      'x-request-uuid': randomUUID(),
      'x-hook-uuid': '{3f0d8a5e-62a4-4b76-8e1b-5e2f7c0d9a14}',
      'x-attempt-number': '1',
      'x-hub-signature': `sha256=${hmacHex(secret, payload)}`,
    },
  };
}

export interface ScmDDataCenterPushOptions {
  project: { key: string; id?: number; name?: string };
  repository: { id: number; slug: string };
  branch: string;
  after?: string;
  deleted?: boolean;
}

export function scmDDataCenterPushPayload(
  options: ScmDDataCenterPushOptions,
): Record<string, unknown> {
  const { project, repository: repo } = options;
  const after = options.deleted
    ? ZERO_SHA
    : (options.after ?? '178864a7d521b6f5e720b386b2c2b0ef8563e0dc');
  return {
    eventKey: 'repo:refs_changed',
    date: '2026-11-21T09:14:05+0000',
    actor: {
      name: 'jdoe',
      emailAddress: 'jane@example.test',
      active: true,
      displayName: 'Jane Doe',
      id: 2,
      slug: 'jdoe',
      type: 'NORMAL',
    },
    repository: {
      slug: repo.slug,
      id: repo.id,
      name: repo.slug,
      hierarchyId: `e3c939f9ef4a7fae272e${repo.id}`,
      scmId: 'git',
      state: 'AVAILABLE',
      statusMessage: 'Available',
      forkable: true,
      project: {
        key: project.key,
        id: project.id ?? 1,
        name: project.name ?? project.key,
        public: false,
        type: 'NORMAL',
      },
      public: false,
      archived: false,
    },
    changes: [
      {
        ref: { id: `refs/heads/${options.branch}`, displayId: options.branch, type: 'BRANCH' },
        refId: `refs/heads/${options.branch}`,
        fromHash: 'ecddabb624f6f5ba43816f5926e580a5f680a932',
        toHash: after,
        type: options.deleted ? 'DELETE' : 'UPDATE',
      },
    ],
  };
}

export function scmDDataCenterDelivery(token: string, eventKey: string, body: unknown): Delivery {
  return {
    payload: JSON.stringify(body),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'ScmD-DataCenter/8.19.1',
      'x-event-key': eventKey,
      'x-request-id': randomUUID(),
      authorization: `Bearer ${token}`,
    },
  };
}

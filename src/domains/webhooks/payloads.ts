import type { ConnectionProvider } from '../../sources/types';

/**
 * What push ingest needs from a provider's native payload, read without trusting its shape:
 * the accounts and repositories that name candidate connections, and the branch updates.
 * Every field is optional in practice (ping events, truncated payloads, hostile senders).
 */
export interface BranchUpdate {
  branch: string;
  commitSha: string | null;
  deleted: boolean;
}

export interface DeliveryFacts {
  /** Provider account ids: installation id (scm-a), workspace slug/uuid (scm-d cloud). */
  accountIds: string[];
  /** Provider repository ids, spelled as provider clients report `externalId`. */
  repositoryIds: string[];
  updates: BranchUpdate[];
  /** scm-a installation lifecycle (`installation` events). */
  installationAction: string | null;
}

export type Json = Record<string, unknown>;

const obj = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null => {
  if (typeof value === 'string' && value.length > 0 && value.length <= 1024) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return null;
};
const ZERO_SHA = /^0+$/;
const HEADS = 'refs/heads/';

function branchOf(ref: string | null): string | null {
  return ref?.startsWith(HEADS) ? ref.slice(HEADS.length) : null;
}

function compact(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

function scmA(body: Json): DeliveryFacts {
  const branch = branchOf(text(body.ref));
  const after = text(body.after);
  const deleted = body.deleted === true || (after !== null && ZERO_SHA.test(after));
  return {
    accountIds: compact([text(obj(body.installation)?.id)]),
    repositoryIds: compact([text(obj(body.repository)?.id)]),
    updates: branch ? [{ branch, commitSha: deleted ? null : after, deleted }] : [],
    installationAction: obj(body.installation) && text(body.action) ? text(body.action) : null,
  };
}

function scmB(body: Json): DeliveryFacts {
  const project = obj(body.project);
  const branch = branchOf(text(body.ref));
  const after = text(body.after) ?? text(body.checkout_sha);
  const deleted = after !== null && ZERO_SHA.test(after);
  return {
    accountIds: [],
    repositoryIds: compact([text(project?.id), text(body.project_id)]),
    updates: branch ? [{ branch, commitSha: deleted ? null : after, deleted }] : [],
    installationAction: null,
  };
}

function scmC(body: Json): DeliveryFacts {
  const resource = obj(body.resource);
  const id = text(obj(resource?.repository)?.id);
  const updates: BranchUpdate[] = [];
  for (const entry of arr(resource?.refUpdates).slice(0, 100)) {
    const update = obj(entry);
    const branch = branchOf(text(update?.name));
    const sha = text(update?.newObjectId);
    if (!branch) continue;
    const deleted = sha !== null && ZERO_SHA.test(sha);
    updates.push({ branch, commitSha: deleted ? null : sha, deleted });
  }
  return {
    accountIds: [],
    repositoryIds: compact([id, id?.toLowerCase() ?? null]),
    updates,
    installationAction: null,
  };
}

function scmDCloud(body: Json): DeliveryFacts {
  const repository = obj(body.repository);
  const workspace = obj(repository?.workspace);
  const fullName = text(repository?.full_name);
  const updates: BranchUpdate[] = [];
  for (const entry of arr(obj(body.push)?.changes).slice(0, 100)) {
    const change = obj(entry);
    const next = obj(change?.new);
    const old = obj(change?.old);
    if (next && text(next.type) === 'branch' && text(next.name)) {
      updates.push({
        branch: text(next.name) as string,
        commitSha: text(obj(next.target)?.hash),
        deleted: false,
      });
    } else if (!next && old && text(old.type) === 'branch' && text(old.name)) {
      updates.push({ branch: text(old.name) as string, commitSha: null, deleted: true });
    }
  }
  return {
    accountIds: compact([
      text(workspace?.slug),
      text(workspace?.uuid),
      fullName?.includes('/') ? (fullName.split('/')[0] ?? null) : null,
    ]),
    repositoryIds: compact([text(repository?.uuid)]),
    updates,
    installationAction: null,
  };
}

function scmDDataCenter(body: Json): DeliveryFacts {
  const repository = obj(body.repository);
  const key = text(obj(repository?.project)?.key);
  const slug = text(repository?.slug);
  const updates: BranchUpdate[] = [];
  for (const entry of arr(body.changes).slice(0, 100)) {
    const change = obj(entry);
    const ref = obj(change?.ref);
    const branch = text(ref?.type) === 'BRANCH' ? text(ref?.displayId) : null;
    if (!branch) continue;
    const deleted = text(change?.type) === 'DELETE';
    updates.push({ branch, commitSha: deleted ? null : text(change?.toHash), deleted });
  }
  return {
    accountIds: [],
    repositoryIds: key && slug ? [`${key}/${slug}`] : [],
    updates,
    installationAction: null,
  };
}

export type DeliveryFlavor =
  | Exclude<ConnectionProvider, 'git' | 'scm-d'>
  | 'scm-d-cloud'
  | 'scm-d-dc';

export function deliveryFacts(flavor: DeliveryFlavor, body: Json): DeliveryFacts {
  switch (flavor) {
    case 'scm-a':
      return scmA(body);
    case 'scm-b':
      return scmB(body);
    case 'scm-c':
      return scmC(body);
    case 'scm-d-cloud':
      return scmDCloud(body);
    case 'scm-d-dc':
      return scmDDataCenter(body);
  }
}

/** Event names that carry branch updates, per flavour. */
export const PUSH_EVENTS: Record<DeliveryFlavor, string[]> = {
  'scm-a': ['push'],
  'scm-b': ['Push Hook'],
  'scm-c': ['git.push'],
  'scm-d-cloud': ['repo:push'],
  'scm-d-dc': ['repo:refs_changed'],
};

export function parseJsonObject(raw: Buffer): Json | null {
  try {
    return obj(JSON.parse(raw.toString('utf8')));
  } catch {
    return null;
  }
}

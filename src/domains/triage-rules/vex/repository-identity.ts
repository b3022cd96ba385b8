/**
 * A repository's identity in a VEX document (docs/triage.md#vex): the same project whatever
 * address a tenant added it with (https or ssh, `user@host:path`, `.git` or not, a trailing
 * slash, the case of the host, a port, credentials), so a document means the same in another
 * tenant or installation. Pure; the input is hostile text.
 */
export interface RepositoryIdentity {
  /** What two addresses of one project share: host and path, lower case. */
  key: string;
  /** The address the export writes: `https://host/path` (`file:///path` for a local one). */
  uri: string;
}

/** Purl types that name a hosted repository (`pkg:github/acme/web`). */
const PURL_HOSTS: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

/** `user@host:path` (no scheme, a colon before any slash). */
const SCP_LIKE = /^(?:[^@/\s]+@)?([A-Za-z0-9.-]+):(?!\/\/)([^\s]+)$/;
const NETWORK_SCHEMES = new Set(['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'git+https:']);

function cleanPath(path: string): string {
  return path
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/^\/+/, '')
    .replace(/\/{2,}/g, '/');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function hosted(host: string, rawPath: string): RepositoryIdentity | null {
  const path = cleanPath(decoded(rawPath));
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!name || !path) return null;
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return { key: `${name}/${path.toLowerCase()}`, uri: `https://${name}/${encoded}` };
}

function fromPurl(text: string): RepositoryIdentity | null {
  const match = /^pkg:([a-z]+)\/([^@?#]+)/i.exec(text);
  const host = match ? PURL_HOSTS[(match[1] as string).toLowerCase()] : undefined;
  return host ? hosted(host, match?.[2] as string) : null;
}

/** The identity of a clone or web address, or a repository purl; null when it names none. */
export function repositoryIdentity(address: string): RepositoryIdentity | null {
  const text = address.trim();
  if (text === '' || text.length > 2048) return null;
  if (/^pkg:/i.test(text)) return fromPurl(text);
  const scp = SCP_LIKE.exec(text);
  if (scp && !text.includes('://')) return hosted(scp[1] as string, scp[2] as string);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol === 'file:') {
    const path = cleanPath(decoded(url.pathname));
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    return path ? { key: `file:///${path}`, uri: `file:///${encoded}` } : null;
  }
  if (!NETWORK_SCHEMES.has(url.protocol)) return null;
  return hosted(url.hostname, url.pathname);
}

import { spawn } from 'node:child_process';
import type { Dirent } from 'node:fs';
import { lstat, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkHost,
  type OutboundPolicy,
  OutboundRefusedError,
  REFUSED_MESSAGE,
} from '../security/outbound-guard';
import { checkFileRepository, FileRepositoryGoneError } from '../security/outbound-guard-files';
import { type HttpsPinning, installedGitPinning } from './git-version';

/**
 * Shallow checkouts for scans, with `git` run through execFile (no shell). Credentials never
 * appear in argv, URLs or logs: https basic credentials travel as an `http.extraHeader` set
 * through GIT_CONFIG_* environment variables, an ssh deploy key is a 0600 file in the scan's
 * temporary directory named by GIT_SSH_COMMAND. The checkout is bounded in time and size; past
 * either bound the git process group is killed and a `GitCheckoutError` says which bound.
 * Every remote goes through the outbound guard first (docs/outbound-guard.md) and git is pinned
 * to the checked address: curl's resolve list for https (TLS still checks the name), ssh's
 * HostName with the name kept as HostKeyAlias, the resolved path for file://.
 */

export type CloneUrlKind = 'https' | 'ssh' | 'file';

export interface ParsedCloneUrl {
  kind: CloneUrlKind;
  /** The URL as git gets it. */
  url: string;
  /** host/path (no scheme, credentials or `.git`): a readable default for names. */
  host: string | null;
  path: string;
}

function hasControlOrSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || code === 0xa0 || code === 0x2028 || code === 0x2029) {
      return true;
    }
  }
  return false;
}

/** scp-like ssh syntax: `git@host:owner/repo.git` (no scheme, a colon before any slash). */
const SCP_LIKE = /^([A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)([^\s]+)$/;

/**
 * Classifies a clone URL, or explains why it is refused. https, ssh (ssh:// or scp-like) and
 * file:// are the only transports; credentials inside an https URL are refused (they would be
 * stored and logged in clear — connections carry credentials, sealed).
 */
export function parseCloneUrl(raw: string): ParsedCloneUrl | { error: string } {
  const text = raw.trim();
  if (text === '' || text.length > 2048)
    return { error: 'must be a clone URL of 1 to 2048 characters' };
  if (hasControlOrSpace(text)) return { error: 'must not contain spaces or control characters' };
  if (text.startsWith('-')) return { error: 'must not start with "-"' };
  // git's `<transport>::<address>` syntax runs helpers (ext:: runs a command): never.
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(text)) return { error: 'must not use a remote helper' };
  const scp = SCP_LIKE.exec(text);
  if (scp && !text.includes('://')) {
    const path = scp[3] as string;
    if (path.startsWith(':')) return { error: 'must not use a remote helper' };
    return { kind: 'ssh', url: text, host: scp[2] as string, path: trimGit(path) };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'must be an https://, ssh:// (or user@host:path) or file:// URL' };
  }
  const path = trimGit(decodeSafe(url.pathname).replace(/^\/+/, ''));
  switch (url.protocol) {
    case 'https:':
      if (url.username || url.password) {
        return { error: 'must not carry credentials; use a connection or a deploy key' };
      }
      if (!url.hostname) return { error: 'must name a host' };
      if (url.search || url.hash) return { error: 'must not carry a query or fragment' };
      return { kind: 'https', url: url.toString(), host: url.host, path };
    case 'ssh:':
      if (url.password) return { error: 'must not carry a password; use a deploy key' };
      if (!url.hostname || url.hostname.startsWith('-')) return { error: 'must name a host' };
      return { kind: 'ssh', url: url.toString(), host: url.host, path };
    case 'file:':
      if (url.host && url.host !== 'localhost') return { error: 'file URLs must be local' };
      if (!url.pathname || url.pathname === '/') return { error: 'must name a directory' };
      return { kind: 'file', url: `file://${url.pathname}`, host: null, path };
    default:
      return { error: `the ${url.protocol.replace(':', '')} transport is not supported` };
  }
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function trimGit(path: string): string {
  return path.replace(/\/+$/, '').replace(/\.git$/, '');
}

/** A URL fit for a log line: no userinfo, no query. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    // scp-like: keep the user (it is "git" by convention) and the path, nothing else is in it.
    return raw;
  }
}

/**
 * A branch name git accepts (`git check-ref-format --branch` rules that matter here), checked
 * before it reaches argv: no leading dash, no `..`, no control characters or `~^:?*[\`.
 */
export function isValidBranchName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/')) return false;
  if (name.endsWith('.') || name.endsWith('.lock') || name === '@') return false;
  if (name.includes('..') || name.includes('//') || name.includes('@{')) return false;
  if (hasControlOrSpace(name) || /[~^:?*[\\]/.test(name)) return false;
  return name.split('/').every((part) => part.length > 0 && !part.startsWith('.'));
}

export type CheckoutFailure =
  | 'timeout'
  | 'too_large'
  | 'cancelled'
  | 'refused'
  // A file:// repository whose folder is gone (below the tenant's own root).
  | 'missing'
  | 'git';

/**
 * `message` is safe to show the tenant (it never carries git's output, addresses or ports);
 * `detail` is for server-side logs only.
 */
export class GitCheckoutError extends Error {
  constructor(
    readonly failure: CheckoutFailure,
    message: string,
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = 'GitCheckoutError';
  }
}

/** Where git may connect: the outbound policy, and the file:// roots (null: no file:// at all). */
export interface GitAccess {
  policy: OutboundPolicy;
  fileRoots: readonly string[] | null;
  /** The tenant whose repository this is (file roots may name `{tenantId}`). */
  tenantId: string | null;
}

const BRANCH_NOT_FOUND = 'the branch was not found in the repository';

/** What git's stderr says, in words that reveal nothing about the network behind it. */
function failureMessage(stderr: string): string {
  if (/Remote branch .* not found|couldn't find remote ref/i.test(stderr)) {
    return BRANCH_NOT_FOUND;
  }
  if (/certificate|SSL/i.test(stderr)) {
    return "the repository's TLS certificate is not trusted (SCAN_GIT_CA_FILE adds authorities)";
  }
  if (
    /Authentication failed|could not read (Username|Password)|Permission denied|\b40[13]\b/i.test(
      stderr,
    )
  ) {
    return 'the repository refused access; check the credentials or deploy key';
  }
  return 'the repository could not be reached';
}

export interface CheckoutOptions {
  url: string;
  branch: string;
  /** Where the working tree goes (must not exist). */
  directory: string;
  /** A private directory for the key and git's HOME; removed by the caller with `directory`. */
  workDirectory: string;
  credentials?: { username: string; password: string } | null;
  /** An OpenSSH private key for ssh URLs. */
  deployKey?: string | null;
  /** A PEM bundle of extra certificate authorities for https (self-hosted servers). */
  caFile?: string | null;
  access: GitAccess;
  maxBytes: number;
  timeoutMs: number;
  /** Aborting kills git (cancellation). */
  signal?: AbortSignal;
  /** How often the size is measured while git runs (default 500 ms). */
  sizePollMs?: number;
  /** Server-side log of what git said when it failed (never shown to tenants). */
  log?: (message: string, details: Record<string, unknown>) => void;
}

export interface Checkout {
  commitSha: string;
  bytes: number;
}

/** Quotes one word for the shell that git runs GIT_SSH_COMMAND through. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A remote that passed the guard: the URL git gets and how git is pinned to the address. */
export interface PinnedRemote {
  kind: CloneUrlKind;
  url: string;
  /** git configuration entries (curl's resolve list, no redirects). */
  config: Array<[string, string]>;
  /** ssh options (connect to the checked address, check the key under the name). */
  ssh: string[];
}

function hostOf(parsed: ParsedCloneUrl): { hostname: string; port: number } {
  if (parsed.kind === 'ssh' && !parsed.url.includes('://')) {
    return { hostname: parsed.host as string, port: 22 };
  }
  const url = new URL(parsed.url);
  const port = url.port ? Number(url.port) : parsed.kind === 'ssh' ? 22 : 443;
  return { hostname: url.hostname, port };
}

/** Said to the tenant when the server's git cannot pin https clones (the detail says why). */
export const HTTPS_UNAVAILABLE = 'https clones are not available on this server';

/**
 * Runs the guard for a clone URL and says how to pin git to what it checked. Throws
 * GitCheckoutError('refused') with a message that names no host or address; an https URL is
 * refused too when the installed git is too old to honour the pin (`httpsPinning`).
 */
export async function pinRemote(
  parsed: ParsedCloneUrl,
  access: GitAccess,
  httpsPinning: () => Promise<HttpsPinning> = installedGitPinning,
): Promise<PinnedRemote> {
  try {
    if (parsed.kind === 'file') {
      if (!access.fileRoots) {
        throw new GitCheckoutError('refused', 'file:// clone URLs are disabled by configuration');
      }
      const url = await checkFileRepository(parsed.url, access.fileRoots, access.tenantId);
      return { kind: 'file', url, config: [], ssh: [] };
    }
    const { hostname, port } = hostOf(parsed);
    const target = await checkHost(hostname, access.policy);
    if (parsed.kind === 'ssh') {
      return {
        kind: 'ssh',
        url: parsed.url,
        config: [],
        ssh: ['-o', `HostName=${target.address}`, '-o', `HostKeyAlias=${target.host}`],
      };
    }
    const pinning = await httpsPinning();
    if (!pinning.ok) throw new GitCheckoutError('refused', HTTPS_UNAVAILABLE, pinning.reason);
    const config: Array<[string, string]> = [['http.followRedirects', 'false']];
    // git gets the host exactly as checked (no trailing dot, canonical IP spelling), so the
    // resolve entry is the one curl looks up.
    const url = new URL(parsed.url);
    url.hostname = target.family === 6 && target.literal ? `[${target.host}]` : target.host;
    if (!target.literal) {
      const address = target.family === 6 ? `[${target.address}]` : target.address;
      config.push(['http.curloptResolve', `${target.host}:${port}:${address}`]);
    }
    return { kind: 'https', url: url.toString(), config, ssh: [] };
  } catch (error) {
    if (error instanceof OutboundRefusedError) {
      throw new GitCheckoutError('refused', REFUSED_MESSAGE, error.detail);
    }
    if (error instanceof FileRepositoryGoneError) {
      throw new GitCheckoutError('missing', error.message, error.path);
    }
    throw error;
  }
}

/** The environment git runs with (exported for tests: secrets live here, never in argv). */
export async function gitEnvironment(
  options: Pick<CheckoutOptions, 'workDirectory' | 'credentials' | 'deployKey' | 'caFile'>,
  remote: PinnedRemote,
) {
  const kind = remote.kind;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.workDirectory,
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_LFS_SKIP_SMUDGE: '1',
    // Only the transport of the checked URL; `ext::` and friends are never allowed.
    GIT_ALLOW_PROTOCOL: kind,
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
  };
  const config: Array<[string, string]> = [
    ['core.hooksPath', '/dev/null'],
    ['advice.detachedHead', 'false'],
    ...remote.config,
  ];
  if (kind === 'https' && options.credentials) {
    const basic = Buffer.from(
      `${options.credentials.username}:${options.credentials.password}`,
      'utf8',
    ).toString('base64');
    config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
  }
  if (kind === 'https' && options.caFile) config.push(['http.sslCAInfo', options.caFile]);
  if (kind === 'ssh') {
    const parts = [
      'ssh',
      // No configuration files: nothing (ProxyCommand, another HostName) may override the pin.
      '-F',
      '/dev/null',
      ...remote.ssh.map(shellQuote),
      '-o',
      'CheckHostIP=no',
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `UserKnownHostsFile=${shellQuote(join(options.workDirectory, 'known_hosts'))}`,
      '-o',
      'ConnectTimeout=30',
    ];
    if (options.deployKey) {
      const keyFile = join(options.workDirectory, 'deploy_key');
      const key = options.deployKey.endsWith('\n') ? options.deployKey : `${options.deployKey}\n`;
      await writeFile(keyFile, key, { mode: 0o600 });
      parts.push('-o', 'IdentitiesOnly=yes', '-i', shellQuote(keyFile));
    }
    env.GIT_SSH_COMMAND = parts.join(' ');
  }
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/** Sums the sizes under `root`, stopping as soon as `limit` is passed. */
export async function directorySize(
  root: string,
  limit = Number.POSITIVE_INFINITY,
): Promise<number> {
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // git may remove temporary files while we walk
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        pending.push(path);
        continue;
      }
      try {
        total += (await lstat(path)).size;
      } catch {
        // gone meanwhile
      }
      if (total > limit) return total;
    }
  }
  return total;
}

interface RunResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs git in its own process group so a kill reaches its helpers (remote-https, index-pack,
 * ssh) too. Rejects with a GitCheckoutError; `watch` may return a failure to kill it early.
 */
function runGit(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs: number; signal?: AbortSignal },
  watch?: () => Promise<GitCheckoutError | null>,
  pollMs = 500,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let stopped: GitCheckoutError | null = null;
    // spawn (never a shell), detached into its own process group for the kill below.
    const child = spawn('git', args, {
      env,
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let errBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      // Only the tail matters for the log line; keep memory bounded whatever git prints.
      errBytes += chunk.length;
      err.push(chunk);
      while (errBytes > 64 * 1024 && err.length > 1) errBytes -= (err.shift() as Buffer).length;
    });
    const finish = (error: Error | null, code: number | null) => {
      clearTimeout(timer);
      clearInterval(poller);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped) return reject(stopped);
      const stderr = Buffer.concat(err).toString('utf8');
      if (error || code !== 0) {
        const text = stderr.trim().split('\n').slice(-3).join(' | ');
        const detail = text || error?.message || `git exited with ${code}`;
        return reject(new GitCheckoutError('git', failureMessage(detail), detail));
      }
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr });
    };
    child.on('error', (error) => finish(error, null));
    child.on('close', (code) => finish(null, code));
    const kill = (reason: GitCheckoutError) => {
      if (stopped) return;
      stopped = reason;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(
      () =>
        kill(
          new GitCheckoutError(
            'timeout',
            `checkout took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`,
          ),
        ),
      options.timeoutMs,
    );
    const onAbort = () =>
      kill(new GitCheckoutError('cancelled', 'checkout stopped: scan cancelled'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    let checking = false;
    const poller = setInterval(() => {
      if (!watch || checking || stopped) return;
      checking = true;
      watch()
        .then((failure) => {
          if (failure) kill(failure);
        })
        .finally(() => {
          checking = false;
        });
    }, pollMs);
  });
}

/**
 * `git clone --depth 1 --branch <branch> --single-branch` into `options.directory`. Throws
 * GitCheckoutError ('refused' for a transport that is not allowed, 'timeout', 'too_large',
 * 'cancelled', 'git' with git's last stderr lines).
 */
export async function shallowCheckout(options: CheckoutOptions): Promise<Checkout> {
  return logged(options, () => checkout(options));
}

/** Hands git's own words (GitCheckoutError.detail) to the server-side log, then rethrows. */
async function logged<T>(
  options: Pick<CheckoutOptions, 'url' | 'log'>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GitCheckoutError && error.detail) {
      options.log?.('git failed', {
        url: redactUrl(options.url),
        failure: error.failure,
        detail: error.detail,
      });
    }
    throw error;
  }
}

async function checkout(options: CheckoutOptions): Promise<Checkout> {
  const parsed = parseCloneUrl(options.url);
  if ('error' in parsed) throw new GitCheckoutError('refused', `clone URL ${parsed.error}`);
  if (!isValidBranchName(options.branch)) {
    throw new GitCheckoutError('refused', `"${options.branch}" is not a valid branch name`);
  }
  const remote = await pinRemote(parsed, options.access);
  const env = await gitEnvironment(options, remote);
  const tooLarge = () =>
    new GitCheckoutError(
      'too_large',
      `checkout is larger than the configured maximum of ${options.maxBytes} bytes and was stopped`,
    );
  await runGit(
    [
      'clone',
      '--depth',
      '1',
      '--single-branch',
      '--no-tags',
      '--quiet',
      `--branch=${options.branch}`,
      '--',
      remote.url,
      options.directory,
    ],
    env,
    { timeoutMs: options.timeoutMs, signal: options.signal },
    async () =>
      (await directorySize(options.directory, options.maxBytes)) > options.maxBytes
        ? tooLarge()
        : null,
    options.sizePollMs,
  ).catch((error: unknown) => {
    // The tenant's own branch name, checked before it reached git: safe to say back.
    if (error instanceof GitCheckoutError && error.message === BRANCH_NOT_FOUND) {
      throw new GitCheckoutError(
        'git',
        `the branch "${options.branch}" was not found in the repository`,
        error.detail,
      );
    }
    throw error;
  });
  const bytes = await directorySize(options.directory, options.maxBytes);
  if (bytes > options.maxBytes) throw tooLarge();
  const head = await runGit(['rev-parse', 'HEAD'], env, {
    cwd: options.directory,
    timeoutMs: 30_000,
    signal: options.signal,
  });
  return { commitSha: head.stdout.trim(), bytes };
}

/**
 * The branch HEAD points at on the remote (`git ls-remote --symref <url> HEAD`): an import that
 * names no default branch takes the repository's own. Same transport rules, credentials and
 * kill-on-timeout as a checkout.
 */
export async function remoteDefaultBranch(
  options: Pick<
    CheckoutOptions,
    | 'url'
    | 'workDirectory'
    | 'credentials'
    | 'deployKey'
    | 'caFile'
    | 'access'
    | 'timeoutMs'
    | 'log'
  >,
): Promise<string> {
  return logged(options, () => defaultBranchOf(options));
}

async function defaultBranchOf(
  options: Parameters<typeof remoteDefaultBranch>[0],
): Promise<string> {
  const parsed = parseCloneUrl(options.url);
  if ('error' in parsed) throw new GitCheckoutError('refused', `clone URL ${parsed.error}`);
  const remote = await pinRemote(parsed, options.access);
  const env = await gitEnvironment(options, remote);
  const { stdout } = await runGit(['ls-remote', '--symref', '--', remote.url, 'HEAD'], env, {
    cwd: options.workDirectory,
    timeoutMs: options.timeoutMs,
  });
  const match = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(stdout);
  if (!match?.[1]) {
    throw new GitCheckoutError('git', 'the remote has no default branch (is it empty?)');
  }
  return match[1];
}

import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isUuid } from './core/uuid';
import { parseCidr } from './security/outbound-guard-ranges';
import { TENANT_PLACEHOLDER } from './security/tenant-roots';

/**
 * Parsers of single settings' values for src/config.ts: each returns the parsed value or pushes a
 * problem naming the setting (loadConfig reports them all at once).
 */

/** Tenant id → the networks its own outbound connections may reach besides the service's. */
export type TenantAllowCidrs = Record<
  string,
  { git?: string[]; webhooks?: string[]; 'tls-probes'?: string[] }
>;

const TENANT_KINDS = ['git', 'webhooks', 'tls-probes'] as const;

/** Long enough not to be guessed by the per-IP rate limit's allowance of tries. */
export function operatorToken(raw: string | undefined, problems: string[]): string | null {
  const token = raw?.trim();
  if (!token) return null;
  if (token.length < 16 || /\s/.test(token)) {
    problems.push('DRIFTWATCH_OPERATOR_TOKEN must be at least 16 characters without spaces');
    return null;
  }
  return token;
}

const OSV_ECOSYSTEM_NAMES: Record<string, string> = {
  npm: 'npm',
  pypi: 'PyPI',
  maven: 'Maven',
  go: 'Go',
  'crates.io': 'crates.io',
  cargo: 'crates.io',
  rubygems: 'RubyGems',
  packagist: 'Packagist',
  composer: 'Packagist',
  nuget: 'NuGet',
};

export function osvEcosystems(raw: string | undefined, problems: string[]): string[] {
  const list = (raw ?? 'npm,PyPI,Maven,Go,crates.io,RubyGems,Packagist,NuGet')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const name of list) {
    const known = OSV_ECOSYSTEM_NAMES[name.toLowerCase()];
    if (!known) problems.push(`OSV_SYNC_ECOSYSTEMS: unknown ecosystem "${name}"`);
    else if (!out.includes(known)) out.push(known);
  }
  return out;
}

export function cidrList(name: string, raw: string | undefined, problems: string[]): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const item of list) {
    if (!parseCidr(item)) {
      problems.push(`${name}: "${item}" is not a CIDR network (10.0.0.0/8, fd00::/8)`);
    }
  }
  return list;
}

export function tenantCidrs(raw: string | undefined, problems: string[]): TenantAllowCidrs {
  const name = 'OUTBOUND_TENANT_ALLOW_CIDRS';
  const out: TenantAllowCidrs = {};
  for (const entry of (raw ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([^:=\s]+):([a-z-]+)=(.+)$/.exec(entry);
    const kind = TENANT_KINDS.find((known) => known === match?.[2]);
    if (!match || !kind || !isUuid(match[1] as string)) {
      problems.push(
        `${name}: "${entry}" is not <tenant-id>:<git|webhooks|tls-probes>=<cidr>,<cidr>`,
      );
      continue;
    }
    const tenant = (match[1] as string).toLowerCase();
    const own = out[tenant] ?? {};
    own[kind] = [...(own[kind] ?? []), ...cidrList(name, match[3], problems)];
    out[tenant] = own;
  }
  return out;
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * file:// roots: absolute, and never a directory holding the service's own files (its working
 * directory, the data directory) — the default lives inside the data directory, not above it,
 * and is one folder per tenant: a root shared by all tenants lets each import the others'
 * repositories, so a shared root is only what an operator configures on purpose.
 */
export function fileRoots(raw: string | undefined, dataDir: string, problems: string[]): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (list.length === 0) return [join(resolve(dataDir, 'repositories'), TENANT_PLACEHOLDER)];
  const roots: string[] = [];
  for (const item of list) {
    const root = resolve(item);
    const bare = root.replaceAll(TENANT_PLACEHOLDER, '');
    if (!isAbsolute(item)) problems.push(`SCAN_FILE_URL_ROOTS: "${item}" must be absolute`);
    else if (inside(bare, process.cwd()) || inside(bare, dataDir)) {
      problems.push(
        `SCAN_FILE_URL_ROOTS: "${item}" contains the service's own files (working or data directory)`,
      );
    } else if (inside(resolve(dataDir, 'pgdata'), root)) {
      problems.push(`SCAN_FILE_URL_ROOTS: "${item}" is inside the database directory`);
    } else roots.push(root);
  }
  return roots;
}

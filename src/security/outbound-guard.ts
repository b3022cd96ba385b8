import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  allowListed,
  type Cidr,
  type IpAddress,
  isMetadataAddress,
  parseCidr,
  parseIpLiteral,
  refusalReason,
} from './outbound-guard-ranges';

/**
 * The one guard for every connection to a user-given address (docs/outbound-guard.md): clone
 * URLs (git over https and ssh), source-control API bases a tenant names, webhook targets, the
 * TLS endpoints a tenant watches.
 * It resolves the name (every A/AAAA record), refuses internal addresses in any spelling, and
 * hands back the one checked address the connection must be pinned to, so a second lookup by
 * the connecting code (DNS rebinding) cannot change where it goes.
 */
export type OutboundKind = 'git' | 'webhooks' | 'status-webhooks' | 'tls-probes';

/**
 * `status-webhooks`: the anonymous status subscribers' targets, which have an allow-list of
 * their own (none by default) and never a tenant's: the `webhooks` list is meant for tenants'
 * integrations, and anyone may create a status subscription. `tls-probes`: the TLS endpoints a
 * tenant watches (docs/quantum.md), a list of their own because a probe connects to any port.
 */
export const OUTBOUND_KINDS: readonly OutboundKind[] = [
  'git',
  'webhooks',
  'status-webhooks',
  'tls-probes',
];

/** What callers see: nothing about the host, its addresses or why exactly. */
export const REFUSED_MESSAGE = 'the address is not allowed';

export class OutboundRefusedError extends Error {
  constructor(
    /** For server-side logs only (which rule, which address); never sent to callers. */
    readonly detail: string,
  ) {
    super(REFUSED_MESSAGE);
    this.name = 'OutboundRefusedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to (the system resolver by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found: LookupAddress[] = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

export interface OutboundPolicy {
  /** Networks an operator allows despite the rules (self-hosted servers on a private network). */
  allow: readonly Cidr[];
  resolve?: Resolver;
}

/** A host that passed the guard, and the one address to connect to. */
export interface CheckedTarget {
  /** The host as the URL names it, normalised (lower case, no trailing dot, no brackets). */
  host: string;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
  /** The host was an IP literal (nothing to resolve, nothing to pin). */
  literal: boolean;
}

const NONE: readonly string[] = [];
const cidrCache = new WeakMap<readonly string[], Cidr[]>();

function parsedList(list: readonly string[]): Cidr[] {
  const known = cidrCache.get(list);
  if (known) return known;
  const parsed = list.map(parseCidr).filter((cidr): cidr is Cidr => cidr !== null);
  cidrCache.set(list, parsed);
  return parsed;
}

/**
 * The operator's allow-lists (config.outbound), handed in as a value: security/ reads no
 * configuration (docs/architecture.md#layer-rules).
 */
export interface OutboundSettings {
  /** A kind without a list allows nothing beyond the rules. */
  allow: Partial<Record<OutboundKind, readonly string[]>>;
  /** Tenant id → its own additions. */
  tenantAllow: Record<string, Partial<Record<OutboundKind, readonly string[]>>>;
}

/** The policy for one kind of connection of one tenant: the service-wide and the tenant's list. */
export function outboundPolicy(
  config: { outbound: OutboundSettings },
  kind: OutboundKind,
  tenantId: string | null,
  resolve?: Resolver,
): OutboundPolicy {
  const own = tenantId ? (config.outbound.tenantAllow[tenantId]?.[kind] ?? []) : [];
  const allow = [...parsedList(config.outbound.allow[kind] ?? NONE), ...parsedList(own)];
  return resolve ? { allow, resolve } : { allow };
}

type HostForm = { kind: 'ip'; address: IpAddress } | { kind: 'name'; name: string };

/**
 * Reads a host the way connecting code would: brackets and zone ids dropped, one trailing dot
 * dropped, and the WHATWG host parser for numeric IPv4 spellings (decimal `2130706433`, octal
 * `0177.0.0.1`, hex `0x7f.1`, short `127.1`, `0`), which are what getaddrinfo's inet_aton
 * accepts too.
 */
export function readHost(raw: string): HostForm {
  let text = raw.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  // A zone id (`%eth0`, `%25eth0` in URLs) only makes sense on IPv6; a `%` anywhere else is
  // an encoding the connecting code may read differently: refused.
  if (text.includes(':')) text = text.replace(/%.*$/, '');
  else if (text.includes('%')) throw new OutboundRefusedError(`encoded host ${raw}`);
  text = text.replace(/\.+$/, '');
  if (text === '' || text.includes('..')) throw new OutboundRefusedError(`empty label in ${raw}`);
  const literal = parseIpLiteral(text);
  if (literal) return { kind: 'ip', address: literal };
  if (text.includes(':')) throw new OutboundRefusedError(`unreadable IPv6 host ${raw}`);
  let normalised: string;
  try {
    normalised = new URL(`http://${text}/`).hostname;
  } catch {
    throw new OutboundRefusedError(`unreadable host ${raw}`);
  }
  const numeric = parseIpLiteral(normalised);
  if (numeric) return { kind: 'ip', address: numeric };
  normalised = normalised.replace(/\.+$/, '');
  if (normalised === 'localhost' || normalised.endsWith('.localhost')) {
    throw new OutboundRefusedError(`local name ${normalised}`);
  }
  return { kind: 'name', name: normalised };
}

function judge(address: IpAddress, policy: OutboundPolicy, host: string): void {
  if (isMetadataAddress(address)) {
    throw new OutboundRefusedError(`${host} → ${address.toString()}: cloud metadata`);
  }
  const reason = refusalReason(address);
  if (reason && !allowListed(address, policy.allow)) {
    throw new OutboundRefusedError(`${host} → ${address.toString()}: ${reason}`);
  }
}

/**
 * The part of the check that needs no DNS: IP literals in any spelling and local names. A name
 * passes here and must still go through checkHost before anything connects to it.
 */
export function checkHostLiteral(raw: string, policy: OutboundPolicy): void {
  const form = readHost(raw);
  if (form.kind === 'ip') judge(form.address, policy, raw);
}

/**
 * Checks a host; resolves names and checks every address (one internal answer refuses the
 * name: a round-robin of public and internal is a rebinding set-up). Throws
 * OutboundRefusedError; returns the first address to pin the connection to.
 */
export async function checkHost(raw: string, policy: OutboundPolicy): Promise<CheckedTarget> {
  const form = readHost(raw);
  if (form.kind === 'ip') {
    judge(form.address, policy, raw);
    const address = form.address.toString();
    return {
      host: address,
      address,
      family: form.address.kind() === 'ipv4' ? 4 : 6,
      literal: true,
    };
  }
  let answers: ResolvedAddress[];
  try {
    answers = await (policy.resolve ?? systemResolver)(form.name);
  } catch (error) {
    throw new OutboundRefusedError(`${form.name} did not resolve: ${(error as Error).message}`);
  }
  if (answers.length === 0) throw new OutboundRefusedError(`${form.name} has no addresses`);
  let first: ResolvedAddress | null = null;
  for (const answer of answers) {
    const address = parseIpLiteral(answer.address);
    if (!address) throw new OutboundRefusedError(`${form.name} → unreadable ${answer.address}`);
    judge(address, policy, form.name);
    first ??= { address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
  }
  const pinned = first as ResolvedAddress;
  return { host: form.name, address: pinned.address, family: pinned.family, literal: false };
}

/** Checks the host of a URL, refusing any scheme not in `protocols` (e.g. `['https:']`). */
export async function checkUrl(
  url: string | URL,
  policy: OutboundPolicy,
  protocols: readonly string[],
): Promise<{ url: URL; target: CheckedTarget }> {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new OutboundRefusedError('unreadable URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new OutboundRefusedError(`scheme ${parsed.protocol} not allowed`);
  }
  return { url: parsed, target: await checkHost(parsed.hostname, policy) };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * An undici dispatcher that connects only to the checked address: its lookup answers the
 * checked host with that address and refuses any other name, so neither a second DNS answer
 * nor a redirect to another host can reach somewhere unchecked. TLS still verifies the name.
 */
export function pinnedAgent(
  target: CheckedTarget,
  options: { connectTimeoutMs?: number; ca?: string | Buffer } = {},
): Agent {
  return new Agent({
    connect: {
      timeout: options.connectTimeoutMs ?? 10_000,
      // Extra certificate authorities (a receiver with a private CA; tests' self-signed one).
      ...(options.ca ? { ca: options.ca } : {}),
      lookup: (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
        const asked = hostname
          .replace(/^\[|\]$/g, '')
          .toLowerCase()
          .replace(/\.$/, '');
        if (asked !== target.host) {
          callback(Object.assign(new Error('not the checked host'), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      },
    },
    // One request per agent: nothing is pooled across checks.
    pipelining: 0,
  });
}

export interface GuardedFetchOptions {
  policy: OutboundPolicy;
  /** Allowed schemes (webhooks: https only). */
  protocols: readonly string[];
  /** Redirects followed, each hop checked and pinned again (0: a redirect is returned as is). */
  maxRedirects?: number;
  connectTimeoutMs?: number;
  /** Extra certificate authorities for https targets. */
  ca?: string | Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * fetch for user-given URLs: every hop is checked and pinned; redirects are followed by hand
 * (never by undici), each target checked like the first. Throws OutboundRefusedError for a
 * refused hop. Bodies of redirected 307/308 requests are not re-sent: callers that post
 * (webhooks) pass maxRedirects 0 and treat a 3xx as a failed delivery.
 */
export async function guardedFetch(
  url: string,
  init: Parameters<typeof undiciFetch>[1],
  options: GuardedFetchOptions,
): Promise<Awaited<ReturnType<typeof undiciFetch>>> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const { target } = await checkUrl(current, options.policy, options.protocols);
    const dispatcher = pinnedAgent(target, {
      connectTimeoutMs: options.connectTimeoutMs,
      ca: options.ca,
    });
    try {
      const response = await undiciFetch(current, { ...init, redirect: 'manual', dispatcher });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location || hop >= (options.maxRedirects ?? 0)) {
        return response;
      }
      await response.body?.cancel().catch(() => {});
      current = new URL(location, current).toString();
    } finally {
      // The response body stays readable: close waits for running requests to finish.
      dispatcher.close().catch(() => {});
    }
  }
}

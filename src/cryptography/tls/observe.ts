/**
 * What Node's own TLS client sees of an endpoint (protocol, cipher suite, the key-exchange group
 * from getEphemeralKeyInfo, the certificate chain as DER), and the one observation that joins it
 * with the raw hybrid-group probe into a verdict (verdict.ts).
 *
 * The client accepts what a server offers rather than what Driftwatch would trust: certificate
 * errors are reported (`authorized`, `authorizationError`), not refused, and TLS 1.0/1.1 and
 * small keys are accepted (OpenSSL security level 0), because an inventory must see the weak
 * endpoints too. Nothing is written after the handshake; the socket is destroyed at once.
 */

import { isIP } from 'node:net';
import {
  type ConnectionOptions,
  type DetailedPeerCertificate,
  type TLSSocket,
  connect as tlsConnect,
} from 'node:tls';
import { groupByName, type NamedGroup } from './groups.js';
import { type HybridProbeResult, probeHybridGroups } from './probe.js';
import { type ChainAuthentication, type TlsVerdict, tlsVerdict } from './verdict.js';

/** Certificates kept from a chain, leaf first; a longer chain is cut (and says so). */
export const MAX_CHAIN_LENGTH = 10;

export interface ObserveTlsOptions {
  /** An IP literal, already checked by the outbound guard. */
  address: string;
  port: number;
  /** Sent as SNI and checked against the certificate; never resolved. */
  servername?: string | undefined;
  timeoutMs: number;
  /** Extra trust anchors (PEM or DER); the system store otherwise. */
  ca?: string | Buffer | (string | Buffer)[] | undefined;
}

export type KeyExchangeMethod =
  | 'ecdhe'
  | 'ffdhe'
  | 'rsa-key-transport'
  | 'hybrid'
  | 'ml-kem'
  | 'unknown';

export interface KeyExchangeFacts {
  method: KeyExchangeMethod;
  /** The TLS group when it is known (always for ECDHE; for FFDHE in TLS 1.3 only). */
  group: NamedGroup | null;
  /** The key size Node reports (253 for X25519, 2048 for ffdhe2048). */
  sizeBits: number | null;
  /** OpenSSL's name of the curve or group as Node reports it (`prime256v1`, `X25519`). */
  reportedName: string | null;
}

export interface TlsObservation {
  /** A TCP connection was made. */
  reachable: boolean;
  /** The TLS handshake completed. */
  handshake: boolean;
  protocol: string | null;
  cipher: { name: string; standardName: string } | null;
  keyExchange: KeyExchangeFacts | null;
  /** DER, leaf first, each certificate once, at most MAX_CHAIN_LENGTH. */
  certificateChain: Buffer[];
  chainTruncated: boolean;
  authorized: boolean;
  authorizationError: string | null;
  problem?: string;
  errorCode?: string;
}

export async function observeTls(options: ObserveTlsOptions): Promise<TlsObservation> {
  const empty: TlsObservation = {
    reachable: false,
    handshake: false,
    protocol: null,
    cipher: null,
    keyExchange: null,
    certificateChain: [],
    chainTruncated: false,
    authorized: false,
    authorizationError: null,
  };
  let socket: TLSSocket;
  try {
    socket = tlsConnect(connectionOptions(options));
  } catch {
    return { ...empty, problem: 'no connection could be opened' }; // an invalid port or CA
  }
  return new Promise((resolve) => {
    let settled = false;
    let reachable = false;
    const finish = (observation: Partial<TlsObservation>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...empty, reachable, ...observation });
    };
    const timer = setTimeout(() => {
      const problem = reachable
        ? `no TLS handshake within ${options.timeoutMs} ms`
        : `no connection within ${options.timeoutMs} ms`;
      finish({ problem });
    }, options.timeoutMs);
    socket.once('connect', () => {
      reachable = true;
    });
    socket.once('secureConnect', () => finish(handshakeFacts(socket)));
    // `on`, not `once`: a second error after the first must not become an uncaught one.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const problem = reachable ? 'the TLS handshake failed' : 'the address could not be reached';
      finish({ problem, errorCode: error.code ?? 'ERROR' });
    });
    socket.once('close', () => finish({ problem: 'the connection closed during the handshake' }));
  });
}

function connectionOptions(options: ObserveTlsOptions): ConnectionOptions {
  const servername =
    options.servername && isIP(options.servername) === 0 ? options.servername : undefined;
  return {
    host: options.address,
    port: options.port,
    ...(servername ? { servername } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
    rejectUnauthorized: false,
    minVersion: 'TLSv1',
    // Level 0 lets OpenSSL 3 speak TLS 1.0/1.1 and accept small keys: an inventory must see them.
    ciphers: 'ALL:@SECLEVEL=0',
  };
}

function handshakeFacts(socket: TLSSocket): Partial<TlsObservation> {
  const protocol = socket.getProtocol();
  const cipher = socket.getCipher();
  const { chain, truncated } = certificateChain(socket.getPeerCertificate(true));
  const error: unknown = socket.authorizationError;
  return {
    reachable: true,
    handshake: true,
    protocol,
    cipher: { name: cipher.name, standardName: cipher.standardName },
    keyExchange: keyExchangeFacts(socket.getEphemeralKeyInfo(), protocol, cipher.standardName),
    certificateChain: chain,
    chainTruncated: truncated,
    authorized: socket.authorized,
    authorizationError: socket.authorized ? null : errorText(error),
  };
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return 'the certificate chain could not be verified';
}

/**
 * The chain Node linked from the peer (leaf first). A self-signed root links to itself, and a
 * hostile chain may loop: each certificate is kept once (by fingerprint) and the walk stops at
 * the first repeat or at MAX_CHAIN_LENGTH.
 */
export function certificateChain(leaf: DetailedPeerCertificate | null | undefined): {
  chain: Buffer[];
  truncated: boolean;
} {
  const chain: Buffer[] = [];
  const seen = new Set<string>();
  // An anonymous or failed handshake gives `{}`: no raw, no chain.
  let current: DetailedPeerCertificate | undefined = leaf ?? undefined;
  while (current && Buffer.isBuffer(current.raw)) {
    const fingerprint = current.fingerprint256 || current.raw.toString('base64');
    if (seen.has(fingerprint)) break;
    if (chain.length === MAX_CHAIN_LENGTH) return { chain, truncated: true };
    seen.add(fingerprint);
    chain.push(Buffer.from(current.raw));
    current = current.issuerCertificate;
  }
  return { chain, truncated: false };
}

/** One own field of an object Node handed back, without trusting its declared type. */
function fieldOf(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.entries(value).find(([name]) => name === key)?.[1];
}

/**
 * The key exchange from getEphemeralKeyInfo(): `{type:'ECDH', name, size}` for ECDHE and X25519
 * (TLS 1.2 and 1.3), `{type:'DH', size}` for finite-field DHE, `{}` for RSA key transport (and,
 * on newer Node with OpenSSL >= 3.5, for hybrid groups before nodejs/node#64119, which reports
 * `{type:'TLSGroup', name}`).
 */
export function keyExchangeFacts(
  info: unknown,
  protocol: string | null,
  standardCipherName: string | undefined,
): KeyExchangeFacts {
  const type = fieldOf(info, 'type');
  const name = fieldOf(info, 'name');
  const size = fieldOf(info, 'size');
  const reportedName = typeof name === 'string' && name.length <= 64 ? name : null;
  const sizeBits = typeof size === 'number' && Number.isSafeInteger(size) ? size : null;
  const facts = { group: null, sizeBits, reportedName };
  if (type === 'DH') {
    // TLS 1.3 has only the named RFC 7919 groups; TLS 1.2 DHE may use any parameters.
    const named = protocol === 'TLSv1.3' && sizeBits ? groupByName(`ffdhe${sizeBits}`) : undefined;
    return { ...facts, method: 'ffdhe', group: named ?? null };
  }
  if (reportedName) {
    const group = groupByName(reportedName) ?? null;
    return { ...facts, method: methodOfGroup(group, type), group };
  }
  if (protocol !== 'TLSv1.3' && standardCipherName?.startsWith('TLS_RSA_')) {
    return { ...facts, method: 'rsa-key-transport' };
  }
  return { ...facts, method: 'unknown' };
}

/** `TLSGroup` (newer Node) names hybrid groups too: the table says what kind they are. */
function methodOfGroup(group: NamedGroup | null, type: unknown): KeyExchangeMethod {
  switch (group?.kind) {
    case 'hybrid':
      return 'hybrid';
    case 'pq':
      return 'ml-kem';
    case 'classical':
      return group.name.startsWith('ffdhe') ? 'ffdhe' : 'ecdhe';
    default:
      return type === 'ECDH' ? 'ecdhe' : 'unknown';
  }
}

export interface ObserveEndpointOptions extends ObserveTlsOptions {
  /**
   * How the caller judges the certificate chain (DER, leaf first): `post-quantum` for an ML-DSA
   * or composite chain. Without it, or for an empty chain, authentication is `unknown`.
   */
  classifyChain?:
    | ((chain: readonly Buffer[]) => ChainAuthentication | Promise<ChainAuthentication>)
    | undefined;
  /** Passed on to the probe (tests). */
  retryWithoutKeyShare?: boolean | undefined;
}

export interface EndpointObservation {
  address: string;
  port: number;
  servername: string | null;
  reachable: boolean;
  tls: TlsObservation;
  hybridProbe: HybridProbeResult;
  /**
   * The best key-exchange group the endpoint was seen to use: the probe's when it chose a hybrid
   * or ML-KEM group, otherwise the group Node negotiated (or the probe's classical one).
   */
  supportedGroup: NamedGroup | null;
  authentication: ChainAuthentication;
  verdict: TlsVerdict | null;
  hybridKexClassicalAuth: boolean;
  verdictReason: string;
  problems: string[];
}

/** Node's handshake and the raw probe side by side, joined into one observation. */
export async function observeEndpoint(
  options: ObserveEndpointOptions,
): Promise<EndpointObservation> {
  const [tls, hybridProbe] = await Promise.all([
    observeTls(options),
    probeHybridGroups({
      address: options.address,
      port: options.port,
      servername: options.servername,
      timeoutMs: options.timeoutMs,
      retryWithoutKeyShare: options.retryWithoutKeyShare,
    }),
  ]);
  const problems = [tls.problem, hybridProbe.problem].filter((text): text is string => !!text);
  const authentication = await chainAuthentication(options, tls.certificateChain, problems);
  const probed = hybridProbe.selectedGroup;
  const negotiated = tls.keyExchange?.group ?? null;
  const result = tlsVerdict({
    protocol: tls.protocol,
    negotiatedGroupKind: negotiated?.kind ?? null,
    negotiatedKeyExchangeKnown: !!tls.keyExchange && tls.keyExchange.method !== 'unknown',
    probedGroupKind: probed?.kind ?? null,
    probeAnswered:
      hybridProbe.answer === 'server-hello' || hybridProbe.answer === 'hello-retry-request',
    authentication,
  });
  const probedIsBetter = probed && (probed.kind === 'hybrid' || probed.kind === 'pq');
  return {
    address: options.address,
    port: options.port,
    servername: options.servername ?? null,
    reachable: tls.reachable || hybridProbe.reachable,
    tls,
    hybridProbe,
    supportedGroup: probedIsBetter ? probed : (negotiated ?? probed),
    authentication,
    verdict: result.verdict,
    hybridKexClassicalAuth: result.hybridKexClassicalAuth,
    verdictReason: result.reason,
    problems,
  };
}

async function chainAuthentication(
  options: ObserveEndpointOptions,
  chain: Buffer[],
  problems: string[],
): Promise<ChainAuthentication> {
  if (!options.classifyChain || chain.length === 0) return 'unknown';
  try {
    return await options.classifyChain(chain);
  } catch {
    problems.push('the certificate chain could not be classified');
    return 'unknown';
  }
}

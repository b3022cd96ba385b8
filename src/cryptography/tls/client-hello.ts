/**
 * A TLS 1.3 ClientHello built byte by byte from RFC 8446 section 4.1.2, for one purpose: to learn
 * which key-exchange group a server picks when it is offered the hybrid ML-KEM groups first.
 * Node 20's OpenSSL 3.0 cannot negotiate those groups, so the probe writes the hello itself
 * and reads only the server's first answer (server-hello.ts); no handshake is ever completed,
 * so the X25519 share's private half is thrown away unused.
 */

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { type ByteReader, MalformedBytes, u16Vector, uint, withLength } from './bytes.js';
import { GROUP } from './groups.js';
import { CONTENT_TYPE, createFirstMessageReader, decodeBody, HANDSHAKE_TYPE } from './records.js';

export const EXTENSION = {
  serverName: 0,
  supportedGroups: 10,
  ecPointFormats: 11,
  signatureAlgorithms: 13,
  extendedMasterSecret: 23,
  supportedVersions: 43,
  pskKeyExchangeModes: 45,
  keyShare: 51,
  renegotiationInfo: 0xff01,
} as const;

export const TLS_VERSION = { tls10: 0x0301, tls11: 0x0302, tls12: 0x0303, tls13: 0x0304 } as const;

/**
 * The groups the probe offers, most wanted first: the hybrids (X25519MLKEM768 first, the one
 * IANA marks Recommended), the pure ML-KEM groups (so a pq-kex server can show itself), then the
 * classical groups a TLS 1.3 server is sure to share with us, so that a classical server still
 * answers with a ServerHello rather than an alert.
 */
export const PROBE_GROUPS: readonly number[] = [
  GROUP.X25519MLKEM768,
  GROUP.SecP256r1MLKEM768,
  GROUP.SecP384r1MLKEM1024,
  GROUP.curveSM2MLKEM768,
  GROUP.MLKEM768,
  GROUP.MLKEM1024,
  GROUP.MLKEM512,
  GROUP.x25519,
  GROUP.secp256r1,
  GROUP.secp384r1,
  GROUP.secp521r1,
  GROUP.x448,
  GROUP.ffdhe2048,
  GROUP.ffdhe3072,
];

/** Cipher suites by codepoint: the TLS 1.3 ones and the TLS 1.2 ones the probe also offers. */
export const CIPHER_SUITES: Readonly<Record<number, string>> = {
  4865: 'TLS_AES_128_GCM_SHA256',
  4866: 'TLS_AES_256_GCM_SHA384',
  4867: 'TLS_CHACHA20_POLY1305_SHA256',
  4868: 'TLS_AES_128_CCM_SHA256',
  49195: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  49199: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  49196: 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  49200: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  52393: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  52392: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  158: 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256',
  156: 'TLS_RSA_WITH_AES_128_GCM_SHA256',
  47: 'TLS_RSA_WITH_AES_128_CBC_SHA',
};

/**
 * TLS 1.3 suites first; a few TLS 1.2 suites after them so that a TLS-1.2-only server answers
 * with its ServerHello (which says so) instead of a handshake_failure alert.
 */
export const PROBE_CIPHER_SUITES: readonly number[] = [
  0x1301, 0x1302, 0x1303, 0x1304, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0x009e, 0x009c,
  0x002f,
];

/**
 * Signature schemes (RFC 8446 section 4.2.3 plus ML-DSA, draft-ietf-tls-mldsa): the server picks its
 * certificate before it answers, so offering everything keeps it from refusing the hello.
 */
export const PROBE_SIGNATURE_SCHEMES: readonly number[] = [
  0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0809, 0x080a, 0x080b, 0x0904,
  0x0905, 0x0906, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201,
];

export interface KeyShare {
  group: number;
  keyExchange: Uint8Array;
}

export interface ClientHelloOptions {
  /** Sent as SNI when it is a DNS name (RFC 6066 forbids IP literals there); never resolved. */
  serverName?: string | undefined;
  /** Key shares to send; empty asks the server to name its group in a HelloRetryRequest. */
  keyShares: readonly KeyShare[];
  groups?: readonly number[];
  cipherSuites?: readonly number[];
  /** Fixed bytes for tests; random otherwise. */
  random?: Uint8Array;
  sessionId?: Uint8Array;
}

/** A fresh X25519 public key (the private half is dropped: no handshake is ever finished). */
export function x25519KeyShare(): KeyShare {
  const { publicKey } = generateKeyPairSync('x25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return { group: GROUP.x25519, keyExchange: spki.subarray(spki.length - 32) };
}

const HOST_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/** The SNI host name for `serverName`, or null when it is not a DNS name we may send. */
export function sniHostName(serverName: string | undefined): string | null {
  if (!serverName) return null;
  const name = serverName.endsWith('.') ? serverName.slice(0, -1) : serverName;
  if (name.length === 0 || name.length > 253 || isIP(name) !== 0) return null;
  return name.split('.').every((label) => HOST_LABEL.test(label)) ? name.toLowerCase() : null;
}

function extension(type: number, ...body: Uint8Array[]): Buffer {
  return Buffer.concat([uint(type, 2), withLength(2, ...body)]);
}

function clientExtensions(options: ClientHelloOptions): Buffer[] {
  const host = sniHostName(options.serverName);
  const shares = options.keyShares.map((share) =>
    Buffer.concat([uint(share.group, 2), withLength(2, share.keyExchange)]),
  );
  const sni = host
    ? [extension(EXTENSION.serverName, withLength(2, uint(0, 1), withLength(2, Buffer.from(host))))]
    : [];
  return [
    ...sni,
    extension(EXTENSION.ecPointFormats, withLength(1, uint(0, 1))),
    extension(EXTENSION.supportedGroups, u16Vector(2, options.groups ?? PROBE_GROUPS)),
    extension(EXTENSION.signatureAlgorithms, u16Vector(2, PROBE_SIGNATURE_SCHEMES)),
    extension(EXTENSION.extendedMasterSecret),
    extension(EXTENSION.renegotiationInfo, withLength(1)),
    extension(EXTENSION.supportedVersions, u16Vector(1, [TLS_VERSION.tls13, TLS_VERSION.tls12])),
    extension(EXTENSION.pskKeyExchangeModes, withLength(1, uint(1, 1))), // psk_dhe_ke
    extension(EXTENSION.keyShare, withLength(2, ...shares)),
  ];
}

/** The whole ClientHello record, ready to write to the socket. */
export function encodeClientHello(options: ClientHelloOptions): Buffer {
  const body = Buffer.concat([
    uint(TLS_VERSION.tls12, 2), // legacy_version
    options.random ?? randomBytes(32),
    withLength(1, options.sessionId ?? randomBytes(32)), // middlebox compatibility mode
    u16Vector(2, options.cipherSuites ?? PROBE_CIPHER_SUITES),
    withLength(1, uint(0, 1)), // legacy_compression_methods: null only
    withLength(2, ...clientExtensions(options)),
  ]);
  const handshake = Buffer.concat([uint(HANDSHAKE_TYPE.clientHello, 1), withLength(3, body)]);
  // legacy_record_version 0x0301 in the first record, as RFC 8446 section 5.1 advises.
  return Buffer.concat([
    uint(CONTENT_TYPE.handshake, 1),
    uint(TLS_VERSION.tls10, 2),
    withLength(2, handshake),
  ]);
}

/** What a ClientHello offers: for the round-trip tests and for anything that must read one. */
export interface OfferedHello {
  legacyVersion: number;
  cipherSuites: number[];
  serverName: string | null;
  groups: number[];
  keyShares: { group: number; length: number }[];
  supportedVersions: number[];
  signatureSchemes: number[];
  extensionTypes: number[];
}

export type ClientHelloDecoding =
  | { ok: true; hello: OfferedHello }
  | { ok: false; problem: string };

/** Decode a ClientHello from record bytes; hostile bytes give a problem, never an exception. */
export function decodeClientHello(bytes: Uint8Array): ClientHelloDecoding {
  const message = createFirstMessageReader(bytes.length + 1).push(bytes);
  if (!message) return { ok: false, problem: 'the ClientHello is incomplete' };
  if (message.kind === 'malformed') return { ok: false, problem: message.problem };
  if (message.kind === 'alert' || message.type !== HANDSHAKE_TYPE.clientHello) {
    return { ok: false, problem: 'not a ClientHello' };
  }
  const decoded = decodeBody(message.body, readClientHello);
  return decoded.ok ? { ok: true, hello: decoded.value } : decoded;
}

function readClientHello(reader: ByteReader): OfferedHello {
  const hello: OfferedHello = {
    legacyVersion: reader.u16('legacy_version'),
    cipherSuites: [],
    serverName: null,
    groups: [],
    keyShares: [],
    supportedVersions: [],
    signatureSchemes: [],
    extensionTypes: [],
  };
  reader.take(32, 'random');
  reader.vector(1, 'legacy_session_id');
  hello.cipherSuites = reader.vector(2, 'cipher_suites').u16List('cipher_suites');
  reader.vector(1, 'legacy_compression_methods');
  if (reader.remaining === 0) return hello;
  const extensions = reader.vector(2, 'extensions');
  while (extensions.remaining > 0) {
    const type = extensions.u16('extension type');
    if (hello.extensionTypes.includes(type)) throw new MalformedBytes('a repeated extension');
    hello.extensionTypes.push(type);
    readClientExtension(type, extensions.vector(2, 'extension'), hello);
  }
  return hello;
}

function readClientExtension(type: number, body: ByteReader, hello: OfferedHello): void {
  switch (type) {
    case EXTENSION.serverName: {
      const list = body.vector(2, 'server_name_list');
      if (list.u8('name_type') !== 0) return;
      hello.serverName = Buffer.from(list.vector(2, 'host_name').rest()).toString('latin1');
      return;
    }
    case EXTENSION.supportedGroups:
      hello.groups = body.vector(2, 'named_group_list').u16List('named_group_list');
      return;
    case EXTENSION.signatureAlgorithms:
      hello.signatureSchemes = body.vector(2, 'signature schemes').u16List('signature schemes');
      return;
    case EXTENSION.supportedVersions:
      hello.supportedVersions = body.vector(1, 'versions').u16List('versions');
      return;
    case EXTENSION.keyShare: {
      const shares = body.vector(2, 'client_shares');
      while (shares.remaining > 0) {
        const group = shares.u16('key share group');
        hello.keyShares.push({ group, length: shares.vector(2, 'key_exchange').remaining });
      }
      return;
    }
    default:
      return;
  }
}

/**
 * TLS for the CBOM: the key-exchange group an endpoint used and what its cipher suite is made of
 * (key exchange, authentication, bulk cipher, hash), each as an algorithm component, and the
 * suite's IANA codepoint for `identifiers`.
 */
import {
  type AlgorithmAsset,
  boundedName,
  curveOf,
  modulusSecurity,
  postQuantumAsset,
  publicKeyAsset,
} from './cbom-algorithms.js';
import { symmetricAsset } from './cbom-symmetric.js';

/**
 * A TLS supported group by its IANA name (or OpenSSL's spelling): ECDH on its curve, X25519,
 * an RFC 7919 ffdhe group, ML-KEM, or a hybrid such as X25519MLKEM768. The obsolete Kyber
 * drafts are named, without levels (pre-standard parameters).
 */
export function groupAsset(raw: string): AlgorithmAsset {
  const name = boundedName(raw) || 'unknown';
  const key = name.toLowerCase();
  const pq = postQuantumAsset([/^mlkem\d+$/.test(key) ? `ML-KEM-${key.slice(5)}` : name], null);
  if (pq) return pq;
  const ffdhe = /^ffdhe(\d{4})$/.exec(key);
  if (ffdhe) {
    const bits = Number(ffdhe[1]);
    const classical = modulusSecurity(bits);
    return {
      name: `ffdhe${bits}`,
      primitive: 'key-agree',
      parameterSetIdentifier: String(bits),
      ...(classical !== undefined ? { classicalSecurityLevel: classical } : {}),
      nistQuantumSecurityLevel: 0,
    };
  }
  if (key.includes('kyber')) return { name, primitive: 'kem' };
  const curve = curveOf(key);
  if (curve) {
    return publicKeyAsset({
      algorithm: 'ECDH',
      curve: curve.name,
      keySize: null,
      use: 'key-agreement',
    });
  }
  return { name, primitive: 'key-agree' };
}

/** IANA names and codepoints of the suites Node offers by default, and a few legacy ones. */
const SUITES: ReadonlyArray<[iana: string, openssl: string, codepoint: number]> = [
  ['TLS_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256', 0x1301],
  ['TLS_AES_256_GCM_SHA384', 'TLS_AES_256_GCM_SHA384', 0x1302],
  ['TLS_CHACHA20_POLY1305_SHA256', 'TLS_CHACHA20_POLY1305_SHA256', 0x1303],
  ['TLS_AES_128_CCM_SHA256', 'TLS_AES_128_CCM_SHA256', 0x1304],
  ['TLS_AES_128_CCM_8_SHA256', 'TLS_AES_128_CCM_8_SHA256', 0x1305],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256', 0xc02b],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384', 0xc02c],
  ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256', 0xc02f],
  ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'ECDHE-RSA-AES256-GCM-SHA384', 0xc030],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305', 0xcca8],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305', 0xcca9],
  ['TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', 'DHE-RSA-AES128-GCM-SHA256', 0x009e],
  ['TLS_DHE_RSA_WITH_AES_256_GCM_SHA384', 'DHE-RSA-AES256-GCM-SHA384', 0x009f],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'ECDHE-ECDSA-AES128-SHA256', 0xc023],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384', 'ECDHE-ECDSA-AES256-SHA384', 0xc024],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'ECDHE-RSA-AES128-SHA256', 0xc027],
  ['TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384', 'ECDHE-RSA-AES256-SHA384', 0xc028],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'ECDHE-ECDSA-AES128-SHA', 0xc009],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'ECDHE-ECDSA-AES256-SHA', 0xc00a],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ECDHE-RSA-AES128-SHA', 0xc013],
  ['TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'ECDHE-RSA-AES256-SHA', 0xc014],
  ['TLS_RSA_WITH_AES_128_GCM_SHA256', 'AES128-GCM-SHA256', 0x009c],
  ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'AES256-GCM-SHA384', 0x009d],
  ['TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA', 0x002f],
  ['TLS_RSA_WITH_AES_256_CBC_SHA', 'AES256-SHA', 0x0035],
  ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA', 0x000a],
];

const SUITE_BY_NAME = new Map<string, { iana: string; codepoint: number }>(
  SUITES.flatMap(([iana, openssl, codepoint]) => [
    [iana, { iana, codepoint }],
    [openssl, { iana, codepoint }],
  ]),
);

/** `0x13`, `0x01`: the two bytes of a codepoint, as CycloneDX's examples write them. */
function codepointBytes(codepoint: number): string[] {
  const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return [hex(codepoint >> 8), hex(codepoint & 0xff)];
}

interface SuiteParts {
  keyExchange?: 'ECDHE' | 'DHE' | 'ECDH' | 'RSA';
  authentication?: 'RSA' | 'ECDSA' | 'DSA';
  bulk?: string;
  hash?: string;
}

/** The parts of an IANA name: TLS_<kx>_<auth>_WITH_<bulk>_<hash>, or TLS 1.3's TLS_<bulk>_<hash>. */
function ianaParts(name: string): SuiteParts | undefined {
  const legacy = /^TLS_([A-Z0-9_]+?)_WITH_([A-Z0-9_]+?)(?:_(SHA|SHA256|SHA384|MD5))?$/.exec(name);
  const modern = legacy ? undefined : /^TLS_([A-Z0-9_]+)_(SHA256|SHA384)$/.exec(name);
  if (modern) return { bulk: modern[1]!, hash: modern[2]! };
  if (!legacy) return undefined;
  const [kx, auth] = legacy[1]!.split('_');
  return {
    ...(kx === 'ECDHE' || kx === 'DHE' || kx === 'ECDH' || kx === 'RSA' ? { keyExchange: kx } : {}),
    ...(auth === 'RSA' || auth === 'ECDSA' ? { authentication: auth } : {}),
    ...(auth === 'DSS' ? { authentication: 'DSA' as const } : {}),
    ...(kx === 'RSA' && !auth ? { authentication: 'RSA' as const } : {}),
    bulk: legacy[2]!,
    ...(legacy[3] ? { hash: legacy[3] } : {}),
  };
}

/** Bulk ciphers an OpenSSL suite name can start its cipher part with. */
const OPENSSL_BULK = /^(AES\d*|CAMELLIA\d*|ARIA\d*|CHACHA20|DES|RC4|SEED|IDEA)(-|$)/;

/** OpenSSL names not in the table (ECDHE-RSA-CAMELLIA256-SHA384): read by their tokens. */
function opensslParts(name: string): SuiteParts | undefined {
  const match =
    /^(?:(ECDHE|DHE|EDH|ECDH)-)?(?:(RSA|ECDSA|DSS)-)?(.+?)(?:-(SHA|SHA256|SHA384|MD5))?$/.exec(
      name,
    );
  const cipher = match?.[3];
  if (!match || !cipher || !OPENSSL_BULK.test(cipher)) return undefined;
  const kx = match[1] === 'EDH' ? 'DHE' : (match[1] as SuiteParts['keyExchange']);
  const auth = match[2] === 'DSS' ? 'DSA' : (match[2] as SuiteParts['authentication']);
  return {
    keyExchange: kx ?? 'RSA',
    authentication: auth ?? 'RSA',
    bulk: cipher
      .replace(/^DES-CBC3$/, '3DES-CBC')
      .replace(/^(AES|CAMELLIA|ARIA)(\d+)$/, '$1$2-CBC'),
    ...(match[4] ? { hash: match[4] } : {}),
  };
}

function bulkAsset(bulk: string): AlgorithmAsset | undefined {
  const text = bulk.replace(/_/g, '-').replace(/^3DES-EDE/, '3DES');
  if (/^NULL$/i.test(text)) return undefined;
  return symmetricAsset(text, /GCM|CCM|POLY1305/.test(text) ? 'ae' : 'block-cipher');
}

export interface SuiteDescription {
  /** The IANA name when the suite is known, else the name as observed. */
  name: string;
  identifiers: string[];
  assets: AlgorithmAsset[];
}

/**
 * What a cipher suite is made of. The key exchange is the observed group when there is one
 * (TLS 1.3 suites never name it); a CBC suite's hash is its HMAC, an AEAD suite's the PRF's.
 */
export function describeCipherSuite(raw: string | null, group: string | null): SuiteDescription {
  const observed = boundedName(raw);
  const known = SUITE_BY_NAME.get(observed.toUpperCase());
  const name = known?.iana ?? observed;
  const upper = name.toUpperCase();
  const parts = (upper.startsWith('TLS_') ? ianaParts(upper) : opensslParts(upper)) ?? {};
  const assets: AlgorithmAsset[] = [];
  if (group) assets.push(groupAsset(group));
  else if (parts.keyExchange === 'ECDHE' || parts.keyExchange === 'ECDH') {
    assets.push(
      publicKeyAsset({ algorithm: 'ECDH', curve: null, keySize: null, use: 'key-agreement' }),
    );
  } else if (parts.keyExchange === 'DHE') {
    assets.push(
      publicKeyAsset({ algorithm: 'DH', curve: null, keySize: null, use: 'key-agreement' }),
    );
  }
  if (parts.keyExchange === 'RSA') {
    assets.push(
      publicKeyAsset({ algorithm: 'RSA', curve: null, keySize: null, use: 'encryption' }),
    );
  }
  if (parts.authentication && parts.keyExchange !== 'RSA') {
    const algorithm = parts.authentication;
    assets.push(publicKeyAsset({ algorithm, curve: null, keySize: null, use: 'signature' }));
  }
  const bulk = parts.bulk ? bulkAsset(parts.bulk) : undefined;
  if (bulk) assets.push(bulk);
  if (parts.hash) {
    const hash = parts.hash === 'SHA' ? 'SHA-1' : parts.hash;
    const aead = bulk?.primitive === 'ae';
    assets.push(symmetricAsset(aead ? hash : `HMAC-${hash}`, aead ? 'hash' : 'mac'));
  }
  return { name, identifiers: known ? codepointBytes(known.codepoint) : [], assets };
}

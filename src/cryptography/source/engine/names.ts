/**
 * Algorithm names as the crypto APIs of every language spell them, read into one vocabulary:
 * curves (P-256 whether written secp256r1, prime256v1, NIST256p or elliptic.P256), JOSE
 * algorithms (RS256, ES384, RSA-OAEP, ECDH-ES), JCA-style names (SHA256withECDSA,
 * RSA/ECB/OAEPPadding), key type names (RSA, EC, Ed25519), and symmetric ciphers and hashes
 * (recorded as algorithms, never as quantum findings).
 */
import type { CryptoPrimitive, PublicKeyAlgorithm, SourceAlgorithmUse } from '../types.js';
import { own } from './values.js';

export type UsePrimitive = Exclude<CryptoPrimitive, 'library'>;

/** A symmetric cipher, hash, MAC or KDF: recorded in the CBOM as an algorithm, no finding. */
export type Recorded = Pick<SourceAlgorithmUse, 'algorithm' | 'kind'>;

/** What an algorithm name says: a public-key family (with curve or size), or a symmetric one. */
export interface NameMeaning {
  algorithm?: PublicKeyAlgorithm;
  /** The use the name itself implies (JOSE `ECDH-ES` is key agreement, `RSA-OAEP` encryption). */
  primitive?: UsePrimitive;
  curve?: string;
  keySize?: number;
  /** True when the name leaves the family open and this is the usual one (JCA `XDH`). */
  assumed?: boolean;
  symmetric?: Recorded;
}

const CURVES: ReadonlyArray<[string, readonly string[]]> = [
  ['P-192', ['p192', 'secp192r1', 'prime192v1', 'nist192p', 'nistp192']],
  ['P-224', ['p224', 'secp224r1', 'nist224p', 'nistp224']],
  ['P-256', ['p256', 'secp256r1', 'prime256v1', 'nist256p', 'nistp256']],
  ['P-384', ['p384', 'secp384r1', 'nist384p', 'nistp384']],
  ['P-521', ['p521', 'secp521r1', 'nist521p', 'nistp521']],
  ['secp256k1', ['secp256k1', 'p256k', 'k256']],
  ['Ed25519', ['ed25519', 'curveed25519']],
  ['Ed448', ['ed448']],
  ['X25519', ['x25519', 'curve25519']],
  ['X448', ['x448', 'curve448']],
  ['brainpoolP256r1', ['brainpoolp256r1', 'brainpoolp256r1curve']],
  ['brainpoolP384r1', ['brainpoolp384r1']],
  ['brainpoolP512r1', ['brainpoolp512r1']],
  ['sm2', ['sm2', 'sm2p256v1']],
];

const CURVE_BY_KEY = new Map<string, string>(
  CURVES.flatMap(([name, keys]) => keys.map((key) => [key, name] as [string, string])),
);

function curveKey(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** The usual name of a named curve, or undefined when `name` is none the table knows. */
export function knownCurve(name: string): string | undefined {
  return CURVE_BY_KEY.get(curveKey(name));
}

/** A curve name as the code wrote it: the usual name when known, the literal otherwise. */
export function curveName(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 40) return undefined;
  return knownCurve(trimmed) ?? trimmed;
}

/** A curve name with the family it implies: Ed25519 is EdDSA, X25519 key agreement, P-256 EC. */
export function curveMeaning(name: string): NameMeaning | undefined {
  const curve = knownCurve(name);
  if (!curve) return undefined;
  if (curve === 'Ed25519' || curve === 'Ed448') return { algorithm: 'EdDSA', curve };
  if (curve === 'X25519' || curve === 'X448') return { algorithm: curve, curve };
  return { algorithm: 'ECDSA', curve };
}

const KEY_TYPES: Readonly<Record<string, PublicKeyAlgorithm>> = {
  rsa: 'RSA',
  rsapss: 'RSA',
  rsassapss: 'RSA',
  ec: 'ECDSA',
  ecdsa: 'ECDSA',
  ecdh: 'ECDH',
  dsa: 'DSA',
  dh: 'DH',
  diffiehellman: 'DH',
  eddsa: 'EdDSA',
};

/**
 * A key or key-pair type name (`RSA`, `EC`, `ECDSA`, `ECDH`, `DSA`, `DH`, `Ed25519`, `X25519`),
 * as key generators and key factories take it.
 */
export function keyTypeName(name: string): NameMeaning | undefined {
  const family = own(KEY_TYPES, name.toLowerCase().replace(/[^a-z0-9]/g, ''));
  return family ? { algorithm: family } : curveMeaning(name);
}

const JWS_CURVE: Readonly<Record<string, string>> = {
  ES256: 'P-256',
  ES384: 'P-384',
  ES512: 'P-521',
  ES256K: 'secp256k1',
};

/** JOSE (JWS and JWE) algorithm names: RS256, PS384, ES256, EdDSA, RSA-OAEP-256, ECDH-ES+A128KW. */
export function joseAlgorithm(name: string): NameMeaning | undefined {
  const upper = name.trim().toUpperCase();
  if (/^(RS|PS)(256|384|512)$/.test(upper)) return { algorithm: 'RSA', primitive: 'signature' };
  const jwsCurve = own(JWS_CURVE, upper);
  if (jwsCurve) return { algorithm: 'ECDSA', primitive: 'signature', curve: jwsCurve };
  if (upper === 'EDDSA') return { algorithm: 'EdDSA', primitive: 'signature' };
  if (upper === 'ED25519' || upper === 'ED448') {
    return {
      algorithm: 'EdDSA',
      primitive: 'signature',
      curve: upper === 'ED25519' ? 'Ed25519' : 'Ed448',
    };
  }
  if (/^RSA(-OAEP(-(256|384|512))?|1_5)$/.test(upper)) {
    return { algorithm: 'RSA', primitive: 'encryption' };
  }
  if (/^ECDH-ES(\+A(128|192|256)KW)?$/.test(upper)) {
    return { algorithm: 'ECDH', primitive: 'key-agreement' };
  }
  if (/^ML-DSA-(44|65|87)$/.test(upper)) return { algorithm: 'ML-DSA', primitive: 'signature' };
  const hmac = /^HS(256|384|512)$/.exec(upper);
  if (hmac) return { symmetric: { algorithm: `HMAC-SHA${hmac[1]}`, kind: 'mac' } };
  return undefined;
}

/** JCA-style signature names: SHA256withRSA, SHA384withECDSA, RSASSA-PSS, Ed25519, SHA1withDSA. */
export function signatureName(name: string): NameMeaning | undefined {
  const upper = name.trim().toUpperCase();
  const curve = /^ED(25519|448)$/.exec(upper);
  if (curve) return { algorithm: 'EdDSA', curve: `Ed${curve[1]}` };
  if (upper === 'EDDSA') return { algorithm: 'EdDSA' };
  if (/^ML-DSA/.test(upper)) return { algorithm: 'ML-DSA' };
  if (/^SLH-DSA/.test(upper)) return { algorithm: 'SLH-DSA' };
  if (/RSA|PSS/.test(upper)) return { algorithm: 'RSA' };
  if (/ECDSA|ECNR|SM2/.test(upper)) return { algorithm: 'ECDSA' };
  if (/(^|WITH|NONE)DSA$/.test(upper) || upper === 'DSA') return { algorithm: 'DSA' };
  return undefined;
}

const HASHES: ReadonlyArray<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^sha-?1$/, () => 'SHA-1'],
  [/^sha-?(224|256|384|512)$/, (m) => `SHA-${m[1]}`],
  [/^sha-?512[-/_](224|256)$/, (m) => `SHA-512/${m[1]}`],
  [/^sha3[-_]?(224|256|384|512)$/, (m) => `SHA3-${m[1]}`],
  [/^shake[-_]?(128|256)$/, (m) => `SHAKE${m[1]}`],
  [/^md([245])$/, (m) => `MD${m[1]}`],
  [/^ripemd-?160$/, () => 'RIPEMD-160'],
  [/^blake2([bs])(\d*)$/, (m) => `BLAKE2${m[1]}${m[2] ?? ''}`],
  [/^blake3$/, () => 'BLAKE3'],
  [/^sm3$/, () => 'SM3'],
  [/^sha-?512-?(224|256)$/, (m) => `SHA-512/${m[1]}`],
  [/^whirlpool$/, () => 'Whirlpool'],
];

/** A hash name (`sha256`, `SHA-256`, `sha3_512`, `md5`) in the usual spelling. */
export function hashName(name: string): string | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/^(rsa-|id-)/, '');
  for (const [pattern, spell] of HASHES) {
    const match = pattern.exec(key);
    if (match) return spell(match);
  }
  return undefined;
}

const AE_MODES = /(GCM|CCM|OCB|SIV|EAX|POLY1305)/;
const BLOCK =
  /^(AES|DES|DESEDE|DES-EDE3|3DES|TRIPLEDES|BLOWFISH|BF|CAMELLIA|SM4|ARIA|CAST5|CAST|IDEA|SEED|RC2)/;

/** A symmetric cipher name (`aes-256-gcm`, `AES/GCM/NoPadding`, `chacha20-poly1305`, `AES`). */
export function cipherName(name: string): Recorded | undefined {
  const upper = name.trim().toUpperCase();
  if (upper === '' || upper.length > 60) return undefined;
  const parts = upper.split('/');
  const base = parts[0] ?? '';
  const mode = parts[1];
  const algorithm = mode && mode !== 'NONE' ? `${base}-${mode}` : base;
  if (/CHACHA20.?POLY1305/.test(upper)) return { algorithm: 'ChaCha20-Poly1305', kind: 'ae' };
  if (/^(X?CHACHA20|SALSA20|RC4|ARCFOUR)/.test(upper)) return { algorithm, kind: 'stream-cipher' };
  if (!BLOCK.test(base)) return undefined;
  return { algorithm, kind: AE_MODES.test(upper) ? 'ae' : 'block-cipher' };
}

/** Bits of the prime of the RFC 2409/3526 MODP groups, by the name Node and OpenSSL give them. */
export function modpBits(name: string): number | undefined {
  const bits: Readonly<Record<string, number>> = {
    modp1: 768,
    modp2: 1024,
    modp5: 1536,
    modp14: 2048,
    modp15: 3072,
    modp16: 4096,
    modp17: 6144,
    modp18: 8192,
    ffdhe2048: 2048,
    ffdhe3072: 3072,
    ffdhe4096: 4096,
    ffdhe6144: 6144,
    ffdhe8192: 8192,
  };
  return own(bits, name.trim().toLowerCase());
}

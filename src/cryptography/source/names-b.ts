/**
 * The algorithm names that crypto APIs take as strings or enum members, read into what they
 * mean: curve names, JWT `alg` values, signature scheme names (`SHA256withECDSA`), key type
 * names (`RSA`, `EC`, `ED25519`), and the symmetric ciphers and hashes recorded as algorithms.
 */
import type { PublicKeyAlgorithm, SourceAlgorithmUse } from './types.js';

/** What a name says about a public-key use; `none` when it names no public-key scheme. */
export interface NameMeaning {
  algorithm?: PublicKeyAlgorithm;
  curve?: string;
  keySize?: number;
  /** A symmetric or hash algorithm the name denotes instead (HS256 is HMAC-SHA256). */
  symmetric?: Pick<SourceAlgorithmUse, 'algorithm' | 'kind'>;
}

const CURVES: Record<string, string> = {
  prime192v1: 'P-192',
  secp192r1: 'P-192',
  p192: 'P-192',
  secp224r1: 'P-224',
  p224: 'P-224',
  prime256v1: 'P-256',
  secp256r1: 'P-256',
  p256: 'P-256',
  nistp256: 'P-256',
  secp384r1: 'P-384',
  p384: 'P-384',
  nistp384: 'P-384',
  secp521r1: 'P-521',
  p521: 'P-521',
  nistp521: 'P-521',
  secp256k1: 'secp256k1',
  k256: 'secp256k1',
  brainpoolp256r1: 'brainpoolP256r1',
  brainpoolp384r1: 'brainpoolP384r1',
  brainpoolp512r1: 'brainpoolP512r1',
  ed25519: 'Ed25519',
  curve25519: 'Curve25519',
  x25519: 'Curve25519',
  ed448: 'Ed448',
  x448: 'Curve448',
};

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A curve name with the family it implies: Ed25519 is EdDSA, X25519 key agreement. */
export function curveMeaning(name: string): NameMeaning | undefined {
  const squashed = squash(name);
  if (squashed === 'x25519') return { algorithm: 'X25519', curve: 'Curve25519' };
  if (squashed === 'x448') return { algorithm: 'X448', curve: 'Curve448' };
  const curve = CURVES[squashed];
  if (!curve) return undefined;
  if (curve === 'Ed25519' || curve === 'Ed448') return { algorithm: 'EdDSA', curve };
  if (curve === 'Curve25519') return { algorithm: 'X25519', curve };
  return { algorithm: 'ECDSA', curve };
}

const JWT_CURVES: Record<string, string> = { '256': 'P-256', '384': 'P-384', '512': 'P-521' };

/** A JWS/JWE `alg` value (RS256, ES384, EdDSA, RSA-OAEP, ECDH-ES, HS256). */
export function jwtAlgorithm(name: string): NameMeaning | undefined {
  const upper = name.trim().toUpperCase();
  if (/^(RS|PS)(256|384|512)$/.test(upper)) return { algorithm: 'RSA' };
  if (upper === 'ES256K') return { algorithm: 'ECDSA', curve: 'secp256k1' };
  const ec = /^ES(256|384|512)$/.exec(upper);
  if (ec?.[1]) return { algorithm: 'ECDSA', curve: JWT_CURVES[ec[1]] ?? 'P-256' };
  if (upper === 'EDDSA' || upper === 'ED25519') return { algorithm: 'EdDSA', curve: 'Ed25519' };
  if (upper === 'RSA1_5' || upper.startsWith('RSA-OAEP')) return { algorithm: 'RSA' };
  if (upper.startsWith('ECDH-ES')) return { algorithm: 'ECDH' };
  const hmac = /^HS(256|384|512)$/.exec(upper);
  if (hmac?.[1]) return { symmetric: { algorithm: `HMAC-SHA${hmac[1]}`, kind: 'mac' } };
  return undefined;
}

/**
 * A signature scheme name as JCA and BouncyCastle write it (`SHA256withRSA`,
 * `SHA256withECDSA`, `SHA1withDSA`, `Ed25519`, `RSASSA-PSS`), or a bare family name.
 */
export function signatureScheme(name: string): NameMeaning | undefined {
  const upper = name.toUpperCase();
  if (/WITHECDSA|^ECDSA|^NONEWITHECDSA|PLAIN-ECDSA|CVC-ECDSA/.test(upper))
    return { algorithm: 'ECDSA' };
  if (/WITHDSA|^DSA$|^NONEWITHDSA/.test(upper)) return { algorithm: 'DSA' };
  if (/WITHRSA|^RSA|RSASSA|PSS/.test(upper)) return { algorithm: 'RSA' };
  if (/^ED25519|^ED448|^EDDSA/.test(upper)) {
    return { algorithm: 'EdDSA', curve: upper.startsWith('ED448') ? 'Ed448' : 'Ed25519' };
  }
  return undefined;
}

/**
 * A key or key-pair type name (`RSA`, `EC`, `ECDSA`, `ECDH`, `DSA`, `DH`, `Ed25519`, `X25519`),
 * as key generators and key factories take it.
 */
export function keyTypeName(name: string): NameMeaning | undefined {
  const squashed = squash(name);
  const families: Record<string, PublicKeyAlgorithm> = {
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
  const family = families[squashed];
  if (family) return { algorithm: family };
  return curveMeaning(name);
}

const HASHES: Record<string, string> = {
  md5: 'MD5',
  md4: 'MD4',
  sha1: 'SHA-1',
  sha224: 'SHA-224',
  sha256: 'SHA-256',
  sha384: 'SHA-384',
  sha512: 'SHA-512',
  sha512256: 'SHA-512/256',
  sha3224: 'SHA3-224',
  sha3256: 'SHA3-256',
  sha3384: 'SHA3-384',
  sha3512: 'SHA3-512',
  ripemd160: 'RIPEMD-160',
  blake2b: 'BLAKE2b',
  blake2b512: 'BLAKE2b',
  blake2s: 'BLAKE2s',
  blake2s256: 'BLAKE2s',
  blake3: 'BLAKE3',
  whirlpool: 'Whirlpool',
  crc32: 'CRC32',
};

/** A hash name (`sha256`, `SHA-256`, `SHA256`) in the inventory's spelling, or undefined. */
export function hashName(name: string): string | undefined {
  return HASHES[squash(name)];
}

/**
 * An OpenSSL-style cipher name (`aes-256-gcm`, `AES-128-CBC`, `chacha20-poly1305`, `des-ede3`)
 * as a symmetric algorithm use.
 */
export function cipherName(
  name: string,
): Pick<SourceAlgorithmUse, 'algorithm' | 'kind'> | undefined {
  const lower = name.trim().toLowerCase();
  if (lower.length === 0 || lower.length > 40) return undefined;
  if (lower.includes('chacha20-poly1305') || lower.includes('chacha20poly1305')) {
    return { algorithm: 'ChaCha20-Poly1305', kind: 'ae' };
  }
  const aes = /^(?:id-)?aes-?(128|192|256)?-?([a-z0-9]+)?/.exec(lower);
  if (aes) {
    const bits = aes[1] ? `-${aes[1]}` : '';
    const mode = aes[2] ? `-${aes[2].toUpperCase()}` : '';
    const aead = /GCM|CCM|OCB|SIV/.test(mode);
    return { algorithm: `AES${bits}${mode}`, kind: aead ? 'ae' : 'block-cipher' };
  }
  if (lower.startsWith('chacha20')) return { algorithm: 'ChaCha20', kind: 'stream-cipher' };
  if (lower.startsWith('des-ede3') || lower.startsWith('3des')) {
    return { algorithm: '3DES', kind: 'block-cipher' };
  }
  if (lower.startsWith('des')) return { algorithm: 'DES', kind: 'block-cipher' };
  if (lower.startsWith('bf') || lower.startsWith('blowfish')) {
    return { algorithm: 'Blowfish', kind: 'block-cipher' };
  }
  if (lower.startsWith('rc4')) return { algorithm: 'RC4', kind: 'stream-cipher' };
  if (lower.startsWith('camellia')) return { algorithm: 'Camellia', kind: 'block-cipher' };
  return undefined;
}

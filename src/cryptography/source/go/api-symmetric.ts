/**
 * Go hashes, MACs, ciphers and KDFs: recorded as algorithms for the CBOM, never findings.
 */
import { hashName } from '../engine/names.js';
import { argValue, at, type Rule, type RuleRead, symmetricFixed } from '../engine/rules.js';

const HASH_FUNCTIONS: ReadonlyArray<[string, readonly string[]]> = [
  ['crypto/md5', ['New', 'Sum']],
  ['crypto/sha1', ['New', 'Sum']],
  ['crypto/sha256', ['New', 'Sum256', 'New224', 'Sum224']],
  ['crypto/sha512', ['New', 'Sum512', 'New384', 'Sum384', 'New512_256', 'Sum512_256']],
  ['crypto/sha3', ['New256', 'New384', 'New512', 'Sum256', 'Sum384', 'Sum512']],
  ['x/crypto/sha3', ['New256', 'New384', 'New512', 'Sum256', 'Sum384', 'Sum512']],
  ['x/crypto/blake2b', ['New256', 'New512', 'Sum256', 'Sum512']],
];

/** The hash a Go function names: `sha256.New` is SHA-256, `sha512.New384` SHA-384. */
export function goHash(path: string): string | undefined {
  const match = /(md5|sha1|sha256|sha512|sha3|blake2b)\.(New|Sum)(\d*)(_(\d+))?(\(\))?$/.exec(path);
  if (!match) return undefined;
  const [, pkg, , digits, , truncated] = match;
  if (pkg === 'md5' || pkg === 'sha1') return hashName(pkg);
  if (pkg === 'sha3') return `SHA3-${digits}`;
  if (pkg === 'blake2b') return `BLAKE2b-${digits}`;
  if (truncated) return `SHA-512/${truncated}`;
  return hashName(`sha${digits || (pkg === 'sha256' ? '256' : '512')}`);
}

const hashRule: RuleRead = (site) => {
  const hash = goHash(site.path);
  return hash ? [{ symmetric: { algorithm: hash, kind: 'hash' } }] : [];
};

const hmacRule: RuleRead = (site, ctx) => {
  const hash = argValue(site, ctx, at(0));
  const name = hash?.kind === 'api' ? goHash(hash.path) : undefined;
  return [{ symmetric: { algorithm: name ? `HMAC-${name}` : 'HMAC', kind: 'mac' } }];
};

/** `cipher.NewGCM(block)` is AES-GCM when the block came from `aes.NewCipher`. */
function blockMode(mode: string, kind: 'ae' | 'block-cipher'): RuleRead {
  return (site, ctx) => {
    const block = argValue(site, ctx, at(0));
    const base = block?.kind === 'api' && block.path.startsWith('crypto/aes.') ? 'AES-' : '';
    return [{ symmetric: { algorithm: `${base}${mode}`, kind } }];
  };
}

export const GO_SYMMETRIC_RULES: readonly Rule[] = [
  ...HASH_FUNCTIONS.flatMap(([pkg, names]) =>
    names.map((name) => ({ path: `${pkg}.${name}`, read: hashRule })),
  ),
  { path: 'crypto/hmac.New', read: hmacRule },
  { path: 'crypto/aes.NewCipher', read: symmetricFixed('AES', 'block-cipher') },
  { path: 'crypto/cipher.NewGCM', read: blockMode('GCM', 'ae') },
  { path: 'crypto/cipher.NewGCMWithNonceSize', read: blockMode('GCM', 'ae') },
  { path: 'crypto/cipher.NewCBCEncrypter', read: blockMode('CBC', 'block-cipher') },
  { path: 'crypto/cipher.NewCBCDecrypter', read: blockMode('CBC', 'block-cipher') },
  { path: 'crypto/cipher.NewCTR', read: blockMode('CTR', 'block-cipher') },
  { path: 'crypto/des.NewTripleDESCipher', read: symmetricFixed('3DES', 'block-cipher') },
  { path: 'crypto/des.NewCipher', read: symmetricFixed('DES', 'block-cipher') },
  { path: 'crypto/rc4.NewCipher', read: symmetricFixed('RC4', 'stream-cipher') },
  { path: 'x/crypto/chacha20poly1305.New', read: symmetricFixed('ChaCha20-Poly1305', 'ae') },
  { path: 'x/crypto/chacha20poly1305.NewX', read: symmetricFixed('XChaCha20-Poly1305', 'ae') },
  { path: 'x/crypto/pbkdf2.Key', read: symmetricFixed('PBKDF2', 'kdf') },
  { path: 'crypto/pbkdf2.Key', read: symmetricFixed('PBKDF2', 'kdf') },
  { path: 'x/crypto/hkdf.New', read: symmetricFixed('HKDF', 'kdf') },
  { path: 'crypto/hkdf.Key', read: symmetricFixed('HKDF', 'kdf') },
  { path: 'x/crypto/scrypt.Key', read: symmetricFixed('scrypt', 'kdf') },
  { path: 'x/crypto/argon2.IDKey', read: symmetricFixed('Argon2id', 'kdf') },
  { path: 'x/crypto/argon2.Key', read: symmetricFixed('Argon2i', 'kdf') },
  { path: 'x/crypto/bcrypt.GenerateFromPassword', read: symmetricFixed('bcrypt', 'kdf') },
];

/**
 * Dependencies that are public-key cryptography libraries, per ecosystem (docs/quantum.md): a
 * dependency on one is a finding with primitive `library`, whatever the source code shows, since
 * the library may be used by code the scan cannot read (generated, dynamic, another service).
 * The algorithm is the family the library exists for; a general toolkit says RSA, the family
 * nearly every use of it starts with.
 */
import type { PublicKeyAlgorithm } from './source/types';

export interface CryptoLibrary {
  algorithm: PublicKeyAlgorithm;
  /** Post-quantum libraries are listed too: they count as quantum-safe, never as findings. */
  postQuantum?: true;
}

type Catalogue = Readonly<Record<string, CryptoLibrary>>;

const RSA: CryptoLibrary = { algorithm: 'RSA' };
const ECDSA: CryptoLibrary = { algorithm: 'ECDSA' };
const EDDSA: CryptoLibrary = { algorithm: 'EdDSA' };
const X25519: CryptoLibrary = { algorithm: 'X25519' };
const ML_KEM: CryptoLibrary = { algorithm: 'ML-KEM', postQuantum: true };
const ML_DSA: CryptoLibrary = { algorithm: 'ML-DSA', postQuantum: true };

/** Keyed by ecosystem (names.ts spelling), then by the dependency's normalised name. */
const LIBRARIES: Readonly<Record<string, Catalogue>> = {
  npm: {
    'node-forge': RSA,
    jsrsasign: RSA,
    'node-rsa': RSA,
    elliptic: ECDSA,
    secp256k1: ECDSA,
    '@noble/curves': ECDSA,
    '@noble/secp256k1': ECDSA,
    '@noble/ed25519': EDDSA,
    tweetnacl: EDDSA,
    'libsodium-wrappers': X25519,
    'sodium-native': X25519,
    jsonwebtoken: RSA,
    jose: RSA,
    ssh2: RSA,
    sshpk: RSA,
    openpgp: RSA,
    '@peculiar/webcrypto': RSA,
    mlkem: ML_KEM,
    '@noble/post-quantum': ML_KEM,
  },
  PyPI: {
    cryptography: RSA,
    pycryptodome: RSA,
    pycryptodomex: RSA,
    pycrypto: RSA,
    rsa: RSA,
    ecdsa: ECDSA,
    paramiko: RSA,
    pynacl: EDDSA,
    ed25519: EDDSA,
    pyjwt: RSA,
    'python-jose': RSA,
    pyopenssl: RSA,
    'liboqs-python': ML_KEM,
  },
  Go: {
    'golang.org/x/crypto': EDDSA,
    'github.com/golang-jwt/jwt': RSA,
    'github.com/golang-jwt/jwt/v4': RSA,
    'github.com/golang-jwt/jwt/v5': RSA,
    'github.com/dgrijalva/jwt-go': RSA,
    'github.com/decred/dcrd/dcrec/secp256k1/v4': ECDSA,
    'github.com/cloudflare/circl': ML_KEM,
    'github.com/open-quantum-safe/liboqs-go': ML_KEM,
  },
  Maven: {
    'org.bouncycastle:bcprov-jdk18on': RSA,
    'org.bouncycastle:bcprov-jdk15on': RSA,
    'org.bouncycastle:bcprov-jdk15to18': RSA,
    'org.bouncycastle:bcpkix-jdk18on': RSA,
    'org.bouncycastle:bcpkix-jdk15on': RSA,
    'io.jsonwebtoken:jjwt-api': RSA,
    'com.nimbusds:nimbus-jose-jwt': RSA,
    'com.auth0:java-jwt': RSA,
    'com.jcraft:jsch': RSA,
    'org.bouncycastle:bcpqc-jdk18on': ML_DSA,
  },
  NuGet: {
    'bouncycastle.cryptography': RSA,
    'portable.bouncycastle': RSA,
    'system.identitymodel.tokens.jwt': RSA,
    'nsec.cryptography': EDDSA,
    'sodium.core': X25519,
  },
  Cargo: {
    rsa: RSA,
    p256: ECDSA,
    p384: ECDSA,
    k256: ECDSA,
    ring: ECDSA,
    'ed25519-dalek': EDDSA,
    'x25519-dalek': X25519,
    openssl: RSA,
    jsonwebtoken: RSA,
    'ml-kem': ML_KEM,
    pqcrypto: ML_KEM,
  },
  RubyGems: {
    ed25519: EDDSA,
    rbnacl: EDDSA,
    jwt: RSA,
    sshkey: RSA,
    'net-ssh': RSA,
  },
  Composer: {
    'phpseclib/phpseclib': RSA,
    'firebase/php-jwt': RSA,
    'lcobucci/jwt': RSA,
    'paragonie/sodium_compat': X25519,
    'web-token/jwt-framework': RSA,
  },
};

/** The library a dependency is, if it is one (names compared case-insensitively). */
export function cryptoLibraryOf(ecosystem: string, name: string): CryptoLibrary | undefined {
  const catalogue = LIBRARIES[ecosystem];
  if (!catalogue) return undefined;
  return catalogue[name] ?? catalogue[name.toLowerCase()];
}

/**
 * The Java Cryptography Architecture as data: the `getInstance` factories with their
 * algorithm names (KeyPairGenerator "RSA", Signature "SHA256withECDSA", KeyAgreement "ECDH",
 * Cipher "RSA/ECB/OAEPPadding"), the key size or curve a generator's `initialize` sets, and the
 * key specs that carry key material.
 */
import {
  cipherName,
  curveName,
  hashName,
  knownCurve,
  type NameMeaning,
  signatureName,
} from '../engine/names.js';
import {
  at,
  fixed,
  named,
  type Rule,
  type RuleContext,
  type RuleRead,
  refineReceiver,
  symmetricNamed,
} from '../engine/rules.js';
import { namedChildren } from '../engine/syntax.js';
import { lastName, numberOf, stringOf, type Value } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';
import type { PublicKeyAlgorithm } from '../types.js';

/** KeyPairGenerator and KeyFactory names. */
export function jcaKeyAlgorithm(name: string): NameMeaning | undefined {
  const upper = name.trim().toUpperCase();
  if (upper === 'RSA' || upper === 'RSASSA-PSS') return { algorithm: 'RSA' };
  if (upper === 'DSA') return { algorithm: 'DSA' };
  if (upper === 'EC' || upper === 'ECDSA') return { algorithm: 'ECDSA' };
  if (upper === 'ECDH') return { algorithm: 'ECDH' };
  if (upper === 'DH' || upper === 'DIFFIEHELLMAN') return { algorithm: 'DH' };
  if (upper === 'ED25519' || upper === 'ED448')
    return { algorithm: 'EdDSA', curve: upper === 'ED25519' ? 'Ed25519' : 'Ed448' };
  if (upper === 'EDDSA') return { algorithm: 'EdDSA' };
  if (upper === 'X25519' || upper === 'X448') return { algorithm: upper };
  if (upper === 'XDH') return { algorithm: 'X25519', assumed: true };
  if (/^ML-KEM/.test(upper)) return { algorithm: 'ML-KEM' };
  if (/^ML-DSA/.test(upper)) return { algorithm: 'ML-DSA' };
  if (/^SLH-DSA/.test(upper)) return { algorithm: 'SLH-DSA' };
  return undefined;
}

/** KeyAgreement names. */
export function jcaAgreement(name: string): NameMeaning | undefined {
  const upper = name.trim().toUpperCase();
  if (/^(ECDH|ECDHC|ECCDH|ECMQV)/.test(upper)) return { algorithm: 'ECDH' };
  if (upper === 'DH' || upper === 'DIFFIEHELLMAN') return { algorithm: 'DH' };
  if (upper === 'X25519' || upper === 'X448') return { algorithm: upper };
  if (upper === 'XDH') return { algorithm: 'X25519', assumed: true };
  return undefined;
}

/** Cipher transformations: RSA and ECIES are public-key encryption, the rest symmetric. */
export function jcaCipher(name: string): NameMeaning | undefined {
  const upper = name.trim().toUpperCase();
  if (/^RSA(\/|$)/.test(upper)) return { algorithm: 'RSA' };
  if (/^ECIES/.test(upper)) return { algorithm: 'ECDH' };
  const symmetric = cipherName(name);
  return symmetric ? { symmetric } : undefined;
}

function macName(name: string): NameMeaning['symmetric'] | undefined {
  const hash = /^HMAC-?(.+)$/i.exec(name.trim());
  const spelled = hash?.[1] ? hashName(hash[1]) : undefined;
  return hash ? { algorithm: spelled ? `HMAC-${spelled}` : 'HMAC', kind: 'mac' } : undefined;
}

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).filter((node) => node.type !== 'comment') : [];
}

const CURVE_HOLDERS =
  /^(new )?(ECGenParameterSpec|ECNamedCurveGenParameterSpec|ECNamedCurveTable|SECNamedCurves|CustomNamedCurves|NISTNamedCurves|X962NamedCurves|TeleTrusTNamedCurves|ECKeyGenerationParameters|ECDomainParameters|ECNamedDomainParameters)\b/;

/**
 * The curve a spec or BouncyCastle parameter object holds: `new ECGenParameterSpec("secp256r1")`,
 * `ECNamedCurveTable.getParameterSpec("P-256")`, or domain parameters built from one of them.
 */
export function javaCurve(
  value: Value | undefined,
  ctx: RuleContext,
  depth = 0,
): string | undefined {
  if (!value || depth > 4) return undefined;
  if (value.kind === 'string') return curveName(value.value);
  if (value.kind !== 'api') return undefined;
  const named = knownCurve(lastName(value.path));
  if (named) return named;
  if (!CURVE_HOLDERS.test(value.path)) return undefined;
  for (const call of value.calls) {
    const first = argumentsOf(call)[0];
    if (!first) continue;
    const inner = ctx.value(first);
    const curve =
      inner.kind === 'string' ? curveName(inner.value) : javaCurve(inner, ctx, depth + 1);
    if (curve) return curve;
  }
  return undefined;
}

/** `initialize(2048)`, `initialize(new RSAKeyGenParameterSpec(3072, F4))`. */
function specSize(value: Value, ctx: RuleContext): number | undefined {
  const direct = numberOf(value);
  if (direct !== undefined) return direct;
  if (
    value.kind !== 'api' ||
    !/^new (RSAKeyGenParameterSpec|DSAGenParameterSpec)\(\)$/.test(value.path)
  )
    return undefined;
  const call = value.calls[value.calls.length - 1];
  const first = call ? argumentsOf(call)[0] : undefined;
  return first ? numberOf(ctx.value(first)) : undefined;
}

function specCurve(value: Value, ctx: RuleContext): string | undefined {
  if (value.kind === 'api') {
    const call = value.calls[value.calls.length - 1];
    if (call) ctx.consume(call);
  }
  return javaCurve(value, ctx);
}

const KEY_SPECS: ReadonlyArray<[readonly string[], PublicKeyAlgorithm]> = [
  [
    [
      'RSAPublicKeySpec',
      'RSAPrivateKeySpec',
      'RSAPrivateCrtKeySpec',
      'RSAMultiPrimePrivateCrtKeySpec',
    ],
    'RSA',
  ],
  [['ECPublicKeySpec', 'ECPrivateKeySpec'], 'ECDSA'],
  [['DSAPublicKeySpec', 'DSAPrivateKeySpec'], 'DSA'],
  [['DHPublicKeySpec', 'DHPrivateKeySpec', 'DHParameterSpec'], 'DH'],
  [['XECPublicKeySpec', 'XECPrivateKeySpec'], 'X25519'],
  [['EdECPublicKeySpec', 'EdECPrivateKeySpec'], 'EdDSA'],
];

const symmetric = (reader: (name: string) => NameMeaning['symmetric'] | undefined) =>
  symmetricNamed(at(0), reader);

export const JCA_RULES: readonly Rule[] = [
  { path: 'KeyPairGenerator.getInstance', read: named('key-generation', at(0), jcaKeyAlgorithm) },
  {
    path: 'KeyPairGenerator.getInstance().initialize',
    read: refineReceiver({
      keySize: { ...at(0), read: specSize },
      curve: { ...at(0), read: specCurve },
    }),
  },
  { path: 'KeyFactory.getInstance', read: named('key-material', at(0), jcaKeyAlgorithm) },
  { path: 'Signature.getInstance', read: named('signature', at(0), signatureName) },
  { path: 'KeyAgreement.getInstance', read: named('key-agreement', at(0), jcaAgreement) },
  { path: 'Cipher.getInstance', read: named('encryption', at(0), jcaCipher) },
  {
    path: 'KeyGenerator.getInstance',
    read: symmetric((name) => cipherName(name) ?? macName(name)),
  },
  {
    path: 'MessageDigest.getInstance',
    read: symmetric((name) => {
      const hash = hashName(name);
      return hash ? { algorithm: hash, kind: 'hash' } : undefined;
    }),
  },
  { path: 'Mac.getInstance', read: symmetric(macName) },
  {
    path: 'SecretKeyFactory.getInstance',
    read: symmetric((name) =>
      /^PBKDF2/i.test(name) ? { algorithm: 'PBKDF2', kind: 'kdf' } : cipherName(name),
    ),
  },
  ...KEY_SPECS.flatMap(([names, algorithm]) =>
    names.map((name) => ({ path: `new ${name}`, read: fixed('key-material', algorithm) })),
  ),
];

/** A curve spec not handed to a generator's `initialize` is still a choice of EC keys. */
export const JCA_LATE_RULES: readonly Rule[] = [
  {
    path: 'new ECGenParameterSpec',
    read: ((site, ctx) => {
      const curve = stringOf(ctx.value(site.args[0] ?? site.node));
      const name = curve ? curveName(curve) : undefined;
      return [
        {
          use: {
            primitive: 'key-generation',
            algorithm: 'ECDSA',
            ...(name ? { curve: name } : {}),
          },
        },
      ];
    }) satisfies RuleRead,
  },
];

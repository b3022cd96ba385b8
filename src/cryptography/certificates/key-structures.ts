/**
 * The algorithm and size of a key, read from its ASN.1 structure alone: no key is ever loaded
 * into OpenSSL, and only public parts (the modulus, the curve, the DSA prime) are looked at.
 * Every function here answers undefined for a structure it does not recognise.
 */
import { EncryptedPrivateKeyInfo, PrivateKeyInfo } from '@peculiar/asn1-pkcs8';
import { AsnConvert } from '@peculiar/asn1-schema';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import * as asn1js from 'asn1js';
import { childrenOf, oidOf, parseDer } from './der.js';
import { curveOf, keyAlgorithmOf } from './oids.js';
import type { KeyAlgorithm } from './types.js';

export interface KeyDescription {
  algorithm: KeyAlgorithm;
  keySize?: number;
  curve?: string;
  parameterSet?: string;
}

/** The bit length of an unsigned INTEGER (a modulus or a prime). */
function integerBits(node: asn1js.AsnType | undefined): number | undefined {
  if (!(node instanceof asn1js.Integer)) return undefined;
  const bytes = node.valueBlock.valueHexView;
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  if (start === bytes.length) return undefined;
  const top = bytes[start] ?? 0;
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(top));
}

function bytesOf(value: ArrayBuffer | null | undefined): Uint8Array | undefined {
  return value ? new Uint8Array(value) : undefined;
}

function withCurve(description: KeyDescription, curveOid: string | undefined): KeyDescription {
  const curve = curveOid ? curveOf(curveOid) : undefined;
  if (curve) return { ...description, curve: curve.name, keySize: curve.bits };
  return curveOid ? { ...description, curve: curveOid } : description;
}

/** Size or curve from the AlgorithmIdentifier parameters and the key's own structure. */
function describeAlgorithm(
  oid: string,
  parameters: Uint8Array | undefined,
  rsaStructure: Uint8Array | undefined,
  rsaModulusIndex: number,
): KeyDescription {
  const info = keyAlgorithmOf(oid);
  const description: KeyDescription = { ...info };
  switch (info.algorithm) {
    case 'RSA': {
      const bits = rsaStructure
        ? integerBits(childrenOf(parseDer(rsaStructure))[rsaModulusIndex])
        : undefined;
      return bits ? { ...description, keySize: bits } : description;
    }
    case 'ECDSA':
    case 'ECDH':
      return withCurve(description, parameters ? oidOf(parseDer(parameters)) : undefined);
    case 'DSA':
    case 'DH': {
      const bits = parameters ? integerBits(childrenOf(parseDer(parameters))[0]) : undefined;
      return bits ? { ...description, keySize: bits } : description;
    }
    default:
      return description;
  }
}

/** A SubjectPublicKeyInfo (PEM `PUBLIC KEY`, a certificate's key). */
export function describeSubjectPublicKeyInfo(spki: SubjectPublicKeyInfo): KeyDescription {
  return describeAlgorithm(
    spki.algorithm.algorithm,
    bytesOf(spki.algorithm.parameters),
    new Uint8Array(spki.subjectPublicKey),
    0,
  );
}

export function describeSpkiDer(der: Uint8Array): KeyDescription | undefined {
  try {
    return describeSubjectPublicKeyInfo(AsnConvert.parse(der, SubjectPublicKeyInfo));
  } catch {
    return undefined;
  }
}

/** PKCS#8 PrivateKeyInfo (PEM `PRIVATE KEY`, a PKCS#12 key bag). */
export function describePkcs8Der(der: Uint8Array): KeyDescription | undefined {
  let info: PrivateKeyInfo;
  try {
    info = AsnConvert.parse(der, PrivateKeyInfo);
  } catch {
    return undefined;
  }
  const oid = info.privateKeyAlgorithm.algorithm;
  const inner = new Uint8Array(info.privateKey.buffer);
  const described = describeAlgorithm(oid, bytesOf(info.privateKeyAlgorithm.parameters), inner, 1);
  // An EC key may carry its curve inside the SEC1 structure instead of the parameters.
  if ((described.algorithm === 'ECDSA' || described.algorithm === 'ECDH') && !described.curve) {
    return withCurve(described, sec1CurveOid(inner));
  }
  return described;
}

export function isEncryptedPkcs8Der(der: Uint8Array): boolean {
  try {
    AsnConvert.parse(der, EncryptedPrivateKeyInfo);
    return true;
  } catch {
    return false;
  }
}

/** PKCS#1 RSAPrivateKey: version, modulus, ... */
export function describePkcs1PrivateDer(der: Uint8Array): KeyDescription | undefined {
  const children = childrenOf(parseDer(der));
  const [version, modulus] = children;
  const isRsa = children.length >= 9 && version instanceof asn1js.Integer;
  const bits = isRsa ? integerBits(modulus) : undefined;
  return bits ? { algorithm: 'RSA', keySize: bits } : undefined;
}

/** PKCS#1 RSAPublicKey: modulus, exponent. */
export function describePkcs1PublicDer(der: Uint8Array): KeyDescription | undefined {
  const children = childrenOf(parseDer(der));
  const [modulus, exponent] = children;
  const bits =
    children.length === 2 && exponent instanceof asn1js.Integer ? integerBits(modulus) : undefined;
  return bits ? { algorithm: 'RSA', keySize: bits } : undefined;
}

function sec1CurveOid(der: Uint8Array): string | undefined {
  for (const child of childrenOf(parseDer(der))) {
    if (child.idBlock.tagClass === 3 && child.idBlock.tagNumber === 0) {
      return oidOf(childrenOf(child)[0]);
    }
  }
  return undefined;
}

/** SEC1 ECPrivateKey (PEM `EC PRIVATE KEY`): version, private key, [0] curve, [1] public key. */
export function describeSec1Der(der: Uint8Array): KeyDescription | undefined {
  const [version, privateKey] = childrenOf(parseDer(der));
  if (!(version instanceof asn1js.Integer) || !(privateKey instanceof asn1js.OctetString)) {
    return undefined;
  }
  return withCurve({ algorithm: 'ECDSA' }, sec1CurveOid(der));
}

/** OpenSSL's DSA private key (PEM `DSA PRIVATE KEY`): version, p, q, g, y, x. */
export function describeOpensslDsaDer(der: Uint8Array): KeyDescription | undefined {
  const children = childrenOf(parseDer(der));
  const bits = children.length >= 6 ? integerBits(children[1]) : undefined;
  return bits ? { algorithm: 'DSA', keySize: bits } : undefined;
}

/**
 * Small, bounds-checked helpers over asn1js for the few structures that have no schema class in
 * the @peculiar packages (PKCS#7 EncryptedData, PBES2 and PKCS#12 PBE parameters). asn1js limits
 * nesting depth and content lengths itself; these never throw, they answer `undefined`.
 */
import * as asn1js from 'asn1js';

/** The one element at the start of `bytes`, or undefined when it is not BER. */
export function parseDer(bytes: Uint8Array): asn1js.AsnType | undefined {
  try {
    const parsed = asn1js.fromBER(bytes);
    return parsed.offset === -1 ? undefined : parsed.result;
  } catch {
    return undefined;
  }
}

/** A constructed element's children (SEQUENCE, SET or a constructed tagged element). */
export function childrenOf(node: asn1js.AsnType | undefined): asn1js.AsnType[] {
  if (node instanceof asn1js.Sequence || node instanceof asn1js.Set) return node.valueBlock.value;
  if (node instanceof asn1js.Constructed) return node.valueBlock.value;
  return [];
}

export function oidOf(node: asn1js.AsnType | undefined): string | undefined {
  return node instanceof asn1js.ObjectIdentifier ? node.valueBlock.toString() : undefined;
}

/** A small non-negative INTEGER (iteration counts, key lengths); undefined past 2^53. */
export function integerOf(node: asn1js.AsnType | undefined): number | undefined {
  if (!(node instanceof asn1js.Integer)) return undefined;
  const bytes = node.valueBlock.valueHexView;
  if (bytes.length > 7 || (bytes[0] ?? 0) & 0x80) return undefined;
  let value = 0;
  for (const byte of bytes) value = value * 256 + byte;
  return value;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.length)));
}

/**
 * The octets of an OCTET STRING, or of an IMPLICIT-tagged one (`[0] IMPLICIT OCTET STRING`),
 * primitive or constructed (BER lets producers split it into chunks).
 */
export function octetsOf(node: asn1js.AsnType | undefined, depth = 0): Uint8Array | undefined {
  if (!node || depth > 4) return undefined;
  if (node instanceof asn1js.OctetString) {
    if (!node.valueBlock.isConstructed) return node.valueBlock.valueHexView;
    return octetsOfChildren(node.valueBlock.value, depth);
  }
  if (node instanceof asn1js.Primitive) return node.valueBlock.valueHexView;
  if (node instanceof asn1js.Constructed) return octetsOfChildren(node.valueBlock.value, depth);
  return undefined;
}

function octetsOfChildren(children: asn1js.AsnType[], depth: number): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  for (const child of children) {
    const part = octetsOf(child, depth + 1);
    if (!part) return undefined;
    parts.push(part);
  }
  return concat(parts);
}

export interface AlgorithmIdentifierNode {
  oid: string;
  parameters: asn1js.AsnType | undefined;
}

export function algorithmIdentifierOf(
  node: asn1js.AsnType | undefined,
): AlgorithmIdentifierNode | undefined {
  const [algorithm, parameters] = childrenOf(node);
  const oid = oidOf(algorithm);
  return oid ? { oid, parameters } : undefined;
}

/**
 * The length of the DER element at the start of `bytes` (header included), when it is definite
 * and fits; used to cut a certificate out of a longer buffer (TRUSTED CERTIFICATE, trailing
 * bytes after a DER file).
 */
export function firstElementLength(bytes: Uint8Array): number | undefined {
  if (bytes.length < 2 || ((bytes[0] ?? 0) & 0x1f) === 0x1f) return undefined;
  const first = bytes[1] ?? 0;
  if (first < 0x80) return 2 + first <= bytes.length ? 2 + first : undefined;
  const count = first & 0x7f;
  if (count === 0 || count > 4 || 2 + count > bytes.length) return undefined;
  let length = 0;
  for (let index = 0; index < count; index++) length = length * 256 + (bytes[2 + index] ?? 0);
  const total = 2 + count + length;
  return total <= bytes.length ? total : undefined;
}

export function toBuffer(view: Uint8Array | ArrayBuffer): Buffer {
  if (view instanceof ArrayBuffer) return Buffer.from(view);
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

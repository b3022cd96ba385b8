/**
 * PKCS#12 / PFX files (RFC 7292), read without their password: certificates in plain
 * SafeContents, or in EncryptedData opened with an empty password (password-decryption.ts).
 * Private keys are counted and described from their certificate, never decrypted: a shrouded
 * key bag says only that a key is there. A plain (unencrypted) key bag is described from its
 * PKCS#8 structure.
 */
import { type ContentInfo, id_data, id_encryptedData } from '@peculiar/asn1-cms';
import {
  AuthenticatedSafe,
  CertBag,
  id_certBag,
  id_keyBag,
  id_pkcs8ShroudedKeyBag,
  id_SafeContents,
  id_x509Certificate,
  PFX,
  type PKCS12Attribute,
  type SafeBag,
  SafeContents,
} from '@peculiar/asn1-pfx';
import { AsnConvert } from '@peculiar/asn1-schema';
import * as asn1js from 'asn1js';
import { algorithmIdentifierOf, childrenOf, octetsOf, parseDer, toBuffer } from './der.js';
import { describePkcs8Der, type KeyDescription } from './key-structures.js';
import { decryptWithEmptyPassword, type KdfBudget } from './password-decryption.js';
import { printable } from './printable.js';

export interface KeystoreCertificate {
  der: Buffer;
  alias?: string;
  /** Ties a certificate to its private key (PKCS#12 localKeyId, hex). */
  keyId?: string;
}

export interface KeystoreKey {
  encrypted: boolean;
  /** Known for a plain key bag; otherwise taken from the certificate with the same keyId. */
  description?: KeyDescription;
  alias?: string;
  keyId?: string;
}

export interface KeystoreContents {
  certificates: KeystoreCertificate[];
  keys: KeystoreKey[];
  problems: string[];
}

const FRIENDLY_NAME = '1.2.840.113549.1.9.20';
const LOCAL_KEY_ID = '1.2.840.113549.1.9.21';
const MAX_CONTENT_INFOS = 64;
const MAX_BAGS = 512;
const MAX_NESTING = 3;

function parseOr<T>(
  bytes: Uint8Array | ArrayBuffer | undefined,
  target: new () => T,
): T | undefined {
  if (!bytes) return undefined;
  try {
    return AsnConvert.parse(bytes, target);
  } catch {
    return undefined;
  }
}

/** A BMPString friendly name, printable and bounded. */
function friendlyName(value: ArrayBuffer): string | undefined {
  const node = parseDer(new Uint8Array(value));
  if (!(node instanceof asn1js.BmpString)) return undefined;
  return printable(node.valueBlock.value);
}

function bagLabels(attributes: PKCS12Attribute[] | undefined): { alias?: string; keyId?: string } {
  const labels: { alias?: string; keyId?: string } = {};
  for (const attribute of attributes ?? []) {
    const [value] = attribute.attrValues;
    if (!value) continue;
    if (attribute.attrId === FRIENDLY_NAME) {
      const alias = friendlyName(value);
      if (alias) labels.alias = alias;
    } else if (attribute.attrId === LOCAL_KEY_ID) {
      const id = octetsOf(parseDer(new Uint8Array(value)));
      if (id) labels.keyId = toBuffer(id).toString('hex').slice(0, 128);
    }
  }
  return labels;
}

class Pkcs12Reader {
  readonly contents: KeystoreContents = { certificates: [], keys: [], problems: [] };
  private bags = 0;

  constructor(private readonly budget: KdfBudget) {}

  readBags(safeContents: SafeContents, depth: number): void {
    for (const bag of safeContents) {
      if (++this.bags > MAX_BAGS) {
        this.contents.problems.push(`more than ${MAX_BAGS} PKCS#12 bags; the rest were not read`);
        return;
      }
      this.readBag(bag, depth);
    }
  }

  private readBag(bag: SafeBag, depth: number): void {
    const labels = bagLabels(bag.bagAttributes);
    switch (bag.bagId) {
      case id_certBag: {
        const certBag = parseOr(bag.bagValue, CertBag);
        const der =
          certBag?.certId === id_x509Certificate
            ? octetsOf(parseDer(new Uint8Array(certBag.certValue)))
            : undefined;
        if (der) this.contents.certificates.push({ der: toBuffer(der), ...labels });
        return;
      }
      case id_keyBag: {
        const description = describePkcs8Der(new Uint8Array(bag.bagValue));
        this.contents.keys.push({
          encrypted: false,
          ...(description && { description }),
          ...labels,
        });
        return;
      }
      case id_pkcs8ShroudedKeyBag:
        this.contents.keys.push({ encrypted: true, ...labels });
        return;
      case id_SafeContents: {
        const nested = parseOr(bag.bagValue, SafeContents);
        if (nested && depth < MAX_NESTING) this.readBags(nested, depth + 1);
        return;
      }
      default:
        return;
    }
  }

  /** EncryptedData: version, EncryptedContentInfo { type, algorithm, [0] IMPLICIT content }. */
  decrypt(content: ArrayBuffer): SafeContents | undefined {
    const [, encryptedContentInfo] = childrenOf(parseDer(new Uint8Array(content)));
    const [, algorithmNode, encryptedNode] = childrenOf(encryptedContentInfo);
    const algorithm = algorithmIdentifierOf(algorithmNode);
    const data = octetsOf(encryptedNode);
    if (!algorithm || !data) {
      this.contents.problems.push('a PKCS#12 EncryptedData that does not parse');
      return undefined;
    }
    let opened: SafeContents | undefined;
    const result = decryptWithEmptyPassword(algorithm, data, this.budget, (plaintext) => {
      opened = parseOr(plaintext, SafeContents);
      return opened !== undefined;
    });
    if (result.ok) return opened;
    this.contents.problems.push(
      result.reason === 'password'
        ? 'PKCS#12 certificates are encrypted with a password; not read'
        : `PKCS#12 certificates not read: ${result.detail}`,
    );
    return undefined;
  }

  readContentInfo(info: ContentInfo): void {
    if (info.contentType === id_data) {
      const safeContents = parseOr(octetsOf(parseDer(new Uint8Array(info.content))), SafeContents);
      if (safeContents) this.readBags(safeContents, 0);
      else this.contents.problems.push('a PKCS#12 SafeContents that does not parse');
    } else if (info.contentType === id_encryptedData) {
      const safeContents = this.decrypt(info.content);
      if (safeContents) this.readBags(safeContents, 0);
    } else {
      this.contents.problems.push('PKCS#12 content encrypted to a public key; not read');
    }
  }
}

/** The contents of a PFX, or undefined when the bytes are not one. */
export function readPkcs12(der: Uint8Array, budget: KdfBudget): KeystoreContents | undefined {
  const pfx = parseOr(der, PFX);
  if (pfx?.version !== 3) return undefined;
  const reader = new Pkcs12Reader(budget);
  if (pfx.authSafe.contentType !== id_data) {
    reader.contents.problems.push('a PKCS#12 file signed with a public key; not read');
    return reader.contents;
  }
  const authenticatedSafe = parseOr(
    octetsOf(parseDer(new Uint8Array(pfx.authSafe.content))),
    AuthenticatedSafe,
  );
  if (!authenticatedSafe) {
    reader.contents.problems.push('a PKCS#12 AuthenticatedSafe that does not parse');
    return reader.contents;
  }
  for (const info of authenticatedSafe.slice(0, MAX_CONTENT_INFOS)) reader.readContentInfo(info);
  return reader.contents;
}

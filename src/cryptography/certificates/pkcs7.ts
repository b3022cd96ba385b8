/**
 * PKCS#7 / CMS certificate bundles (.p7b, .p7c, PEM `PKCS7`): a SignedData ContentInfo whose
 * `[0] IMPLICIT certificates` field holds the chain (RFC 5652). Each certificate is returned as
 * its original encoding, so fingerprints match the certificate as issued.
 */
import { id_signedData } from '@peculiar/asn1-cms';
import * as asn1js from 'asn1js';
import { childrenOf, oidOf, parseDer, toBuffer } from './der.js';

/** The certificates of a SignedData bundle, or undefined when the bytes are not one. */
export function readPkcs7Certificates(der: Uint8Array, max: number): Buffer[] | undefined {
  const [contentType, explicitContent] = childrenOf(parseDer(der));
  if (oidOf(contentType) !== id_signedData) return undefined;
  const signedData = childrenOf(explicitContent)[0];
  const certificates: Buffer[] = [];
  for (const field of childrenOf(signedData)) {
    if (field.idBlock.tagClass !== 3 || field.idBlock.tagNumber !== 0) continue;
    for (const choice of childrenOf(field)) {
      // Other choices (attribute certificates, [n]-tagged formats) are not X.509 certificates.
      if (choice instanceof asn1js.Sequence && certificates.length < max) {
        certificates.push(toBuffer(choice.valueBeforeDecodeView));
      }
    }
  }
  return certificates;
}

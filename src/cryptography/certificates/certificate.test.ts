import { describe, expect, it } from 'vitest';
import { CertificateReadError, describeCertificate } from './certificate.js';

describe('describeCertificate', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['not-der', Buffer.from('hello')],
    ['a-sequence-of-nothing', Buffer.from([0x30, 0x00])],
  ])('throws CertificateReadError for %s', (_scenario, der) => {
    expect(() => describeCertificate(der, new Date())).toThrow(CertificateReadError);
  });
});

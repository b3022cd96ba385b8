import { webcrypto } from 'node:crypto';

const RSA_BITS = 4096;

export class KeyWrapper {
  private readonly subtle = webcrypto.subtle;

  async createWrappingKey() {
    return this.subtle.generateKey( // expect: key-generation RSA
      {
        name: 'RSA-OAEP',
        modulusLength: RSA_BITS,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['wrapKey', 'unwrapKey'],
    );
  }

  async wrap(dataKey: CryptoKey, wrappingKey: CryptoKey) {
    return this.subtle.wrapKey('raw', dataKey, wrappingKey, { name: 'RSA-OAEP' }); // expect: encryption RSA
  }

  async seal(publicKey: CryptoKey, payload: Uint8Array) {
    return this.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, payload); // expect: encryption RSA
  }
}

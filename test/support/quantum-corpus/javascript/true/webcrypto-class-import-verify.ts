/**
 * Verifies webhook signatures from a payment provider that signs with RSASSA-PKCS1-v1_5.
 */
const VERIFY_ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

export class WebhookVerifier {
  private readonly subtle = globalThis.crypto.subtle;
  private key?: CryptoKey;

  async load(spki: ArrayBuffer): Promise<void> {
    this.key = await this.subtle.importKey('spki', spki, VERIFY_ALGORITHM, false, ['verify']); // expect: key-material RSA
  }

  async verify(signature: ArrayBuffer, body: ArrayBuffer): Promise<boolean> {
    if (!this.key) throw new Error('no key loaded');
    return this.subtle.verify(VERIFY_ALGORITHM, this.key, signature, body); // expect: signature RSA
  }
}

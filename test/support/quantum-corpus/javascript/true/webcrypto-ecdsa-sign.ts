// Browser and Node 20: signs audit records with a P-384 key kept in IndexedDB.
const { subtle } = globalThis.crypto;

const SIGNING_ALGORITHM: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-384' };
const SIGN_PARAMS: EcdsaParams = { name: 'ECDSA', hash: 'SHA-384' };

export async function createSigningKey(): Promise<CryptoKeyPair> {
  return subtle.generateKey(SIGNING_ALGORITHM, false, ['sign', 'verify']); // expect: key-generation ECDSA
}

export async function signRecord(key: CryptoKey, record: unknown): Promise<ArrayBuffer> {
  const bytes = new TextEncoder().encode(JSON.stringify(record));
  return subtle.sign(SIGN_PARAMS, key, bytes); // expect: signature ECDSA
}

export async function fingerprint(data: Uint8Array): Promise<ArrayBuffer> {
  return subtle.digest('SHA-256', data);
}

type Algorithm = { name: string; saltLength?: number; hash?: string };

const PSS: Algorithm = { name: 'RSA-PSS', saltLength: 32 };
const MAC: Algorithm = { name: 'HMAC', hash: 'SHA-256' };

export async function signRelease(subtle: SubtleCryptoLike, key: unknown, data: Uint8Array) {
  // `subtle` is a parameter here: the call cannot be tied to WebCrypto without the caller.
  return subtle.sign(PSS, key, data);
}

export async function signReleaseWithGlobal(key: unknown, data: Uint8Array) {
  return crypto.subtle.sign(PSS, key as never, data); // expect: signature RSA
}

export async function macRelease(key: unknown, data: Uint8Array) {
  return crypto.subtle.sign(MAC, key as never, data);
}

interface SubtleCryptoLike {
  sign(algorithm: Algorithm, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}

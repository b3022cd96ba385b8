import { secp256k1 } from '@noble/curves/secp256k1';
import { x25519 } from '@noble/curves/ed25519';

export function createAccount() {
  const secret = secp256k1.utils.randomPrivateKey(); // expect: key-generation ECDSA
  return { secret, address: secp256k1.getPublicKey(secret) };
}

export function signHash(hash: Uint8Array, secret: Uint8Array) {
  return secp256k1.sign(hash, secret); // expect: signature ECDSA
}

export function agree(mine: Uint8Array, theirs: Uint8Array) {
  return x25519.getSharedSecret(mine, theirs); // expect: key-agreement X25519
}

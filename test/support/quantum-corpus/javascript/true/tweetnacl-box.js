import nacl from 'tweetnacl';

export function newIdentity() {
  return { box: nacl.box.keyPair(), sign: nacl.sign.keyPair() }; // expect: key-generation X25519; key-generation EdDSA
}

export function seal(message, nonce, theirPublic, mySecret) {
  return nacl.box(message, nonce, theirPublic, mySecret); // expect: key-agreement X25519
}

export function signDetached(message, secretKey) {
  return nacl.sign.detached(message, secretKey); // expect: signature EdDSA
}

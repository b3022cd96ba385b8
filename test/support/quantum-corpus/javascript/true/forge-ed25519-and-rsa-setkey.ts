import forge from 'node-forge';

export function deviceIdentity(seed: Uint8Array) {
  const keys = forge.pki.ed25519.generateKeyPair({ seed }); // expect: key-generation EdDSA
  const signature = forge.pki.ed25519.sign({ message: 'hello', encoding: 'utf8', privateKey: keys.privateKey }); // expect: signature EdDSA
  return { keys, signature };
}

export function publicKeyFromComponents(modulusHex: string) {
  const n = new forge.jsbn.BigInteger(modulusHex, 16);
  const e = new forge.jsbn.BigInteger('10001', 16);
  return forge.pki.rsa.setPublicKey(n, e); // expect: key-material RSA
}

export async function deriveSessionKey(peerPublic) {
  const { webcrypto } = await import('node:crypto');
  const mine = await webcrypto.subtle.generateKey({ name: 'X25519' }, false, ['deriveBits']); // expect: key-generation X25519
  const bits = await webcrypto.subtle.deriveBits({ name: 'X25519', public: peerPublic }, mine.privateKey, 256); // expect: key-agreement X25519
  return { bits, publicKey: mine.publicKey };
}

import { ec as EC } from 'elliptic';

const secp256k1 = new EC('secp256k1'); // expect: signature ECDSA

export function newWallet() {
  const key = secp256k1.genKeyPair(); // expect: key-generation ECDSA
  return { priv: key.getPrivate('hex'), pub: key.getPublic('hex') };
}

export function signTransaction(privHex: string, digest: string) {
  const key = secp256k1.keyFromPrivate(privHex, 'hex'); // expect: key-material ECDSA
  return key.sign(digest).toDER('hex'); // expect: signature ECDSA
}

export function sharedSecret(privHex: string, peerPub: string) {
  const mine = secp256k1.genKeyPair(); // expect: key-generation ECDSA
  return mine.derive(secp256k1.keyFromPublic(peerPub, 'hex').getPublic()); // expect: key-agreement ECDH; key-material ECDSA
}

import * as nodeCrypto from 'node:crypto';

const { privateKey, publicKey } = nodeCrypto.generateKeyPairSync('ed448'); // expect: key-generation EdDSA

export function signReceipt(receipt) {
  return nodeCrypto.sign(undefined, Buffer.from(receipt), privateKey); // expect: signature EdDSA
}

export function checkReceipt(receipt, signature) {
  return nodeCrypto.verify(null, Buffer.from(receipt), publicKey, signature); // expect: signature EdDSA
}

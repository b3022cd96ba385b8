import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

export async function serviceAccountKey() {
  return generateKeyPairAsync('ec', { namedCurve: 'P-256' }); // expect: key-generation ECDSA
}

import { generateKeyPair } from 'crypto';
import { promisify } from 'util';

const generate = promisify(generateKeyPair);

function keyBits(): number {
  return 3072;
}

export async function rotate(): Promise<void> {
  const pair = await generate('rsa', { modulusLength: keyBits() }); // expect: key-generation RSA
  await store(pair);
}

export function rotateLegacy(done: (err: Error | null) => void): void {
  generateKeyPair('rsa-pss', { modulusLength: keyBits(), hashAlgorithm: 'sha256' }, (err) => done(err)); // expect: key-generation RSA
}

declare function store(pair: unknown): Promise<void>;

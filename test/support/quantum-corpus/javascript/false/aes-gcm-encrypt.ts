import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';

export function encrypt(key: Buffer, plaintext: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, data, tag: cipher.getAuthTag() };
}

export function decrypt(key: Buffer, box: { iv: Buffer; data: Buffer; tag: Buffer }) {
  const decipher = createDecipheriv(ALGORITHM, key, box.iv);
  decipher.setAuthTag(box.tag);
  return Buffer.concat([decipher.update(box.data), decipher.final()]).toString('utf8');
}

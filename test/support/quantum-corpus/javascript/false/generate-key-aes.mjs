import { generateKeySync, createCipheriv, randomBytes } from 'node:crypto';

const key = generateKeySync('aes', { length: 256 });
const macKey = generateKeySync('hmac', { length: 512 });

export function seal(text) {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return { iv, data: Buffer.concat([cipher.update(text), cipher.final()]), macKey };
}

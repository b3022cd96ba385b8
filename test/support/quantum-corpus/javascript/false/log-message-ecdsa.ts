import { logger } from './logger';

export function reportKeyInventory(inventory: { rsa: number; ecdsa: number }) {
  logger.info('Generating ECDSA key inventory report');
  logger.warn(`Found ${inventory.rsa} RSA keys below 2048 bits; run generateKeyPair('rsa') with 3072`);
  console.log('crypto.subtle.generateKey({ name: "RSA-OAEP" }) is done by the KMS now');
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * AES-256-GCM for secrets kept at rest (provider credentials, webhook secrets, replayable token
 * secrets). Output: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export interface SecretBox {
  seal: (plaintext: string) => string;
  open: (sealed: string) => string;
}

export function createSecretBox(keyBase64: string): SecretBox {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('the master key must be 32 bytes');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined)
        throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/** The configured key, or one kept in `dataDir/master.key` (created on first start, mode 0600). */
export function resolveMasterKey(
  configured: string | null,
  dataDir: string,
): { key: string; generated: boolean } {
  if (configured) return { key: configured, generated: false };
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, generated: true };
}

/**
 * The key the service would use, without creating one: the configured key, else
 * `dataDir/master.key`, else null (a service starting there would generate a new key).
 */
export function readMasterKey(configured: string | null, dataDir: string): string | null {
  if (configured) return configured;
  const file = join(dataDir, 'master.key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/**
 * Names a master key without revealing it: 16 hex digits of SHA-256 over a fixed label and the
 * key's bytes. Backups record it, so a restore with another key refuses at once
 * (docs/scaling.md#backups) instead of failing on every sealed secret later.
 */
export function masterKeyFingerprint(keyBase64: string): string {
  return createHash('sha256')
    .update('driftwatch master key fingerprint v1\u0000')
    .update(Buffer.from(keyBase64, 'base64'))
    .digest('hex')
    .slice(0, 16);
}

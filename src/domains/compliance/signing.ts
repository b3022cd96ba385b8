import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../security/secret-box';
import { sha256Hex } from './evidence-model';

/**
 * The service's Ed25519 key for evidence archives (docs/compliance.md#signatures). One per
 * service, created on first use; the private key is kept sealed with the master key (secret
 * box) and is only ever opened to sign. `db` is the system connection: the key is no tenant's.
 */
export interface SigningKey {
  keyId: string;
  publicKeyPem: string;
}

export interface OpenSigningKey extends SigningKey {
  privateKey: KeyObject;
}

/** The key's id: the SHA-256 of its SubjectPublicKeyInfo (DER), hex (`openssl pkey -pubin -outform DER | sha256sum`). */
export function keyIdOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return sha256Hex(der);
}

async function activeKey(db: Kysely<DB>) {
  return db
    .selectFrom('compliance_signing_keys')
    .selectAll()
    .where('active', '=', true)
    .executeTakeFirst();
}

/** The active key, created once (two processes racing keep the first: the unique index). */
async function ensureKey(db: Kysely<DB>, box: SecretBox) {
  const existing = await activeKey(db);
  if (existing) return existing;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await db
    .insertInto('compliance_signing_keys')
    .values({
      key_id: keyIdOf(publicKeyPem),
      algorithm: 'Ed25519',
      public_key_pem: publicKeyPem,
      private_key_sealed: box.seal(privatePem),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const created = await activeKey(db);
  if (!created) throw new Error('the archive signing key could not be stored');
  return created;
}

/** The public half, for GET /api/v1/compliance/signing-key. */
export async function publicSigningKey(db: Kysely<DB>, box: SecretBox): Promise<SigningKey> {
  const key = await ensureKey(db, box);
  return { keyId: key.key_id, publicKeyPem: key.public_key_pem };
}

/** The key with its private half opened, to sign an archive's manifest. */
export async function openSigningKey(db: Kysely<DB>, box: SecretBox): Promise<OpenSigningKey> {
  const key = await ensureKey(db, box);
  return {
    keyId: key.key_id,
    publicKeyPem: key.public_key_pem,
    privateKey: createPrivateKey(box.open(key.private_key_sealed)),
  };
}

/** A detached Ed25519 signature (64 raw bytes), as `openssl pkeyutl -verify -rawin` reads it. */
export function signDetached(key: OpenSigningKey, data: Uint8Array): Buffer {
  return sign(null, data, key.privateKey);
}

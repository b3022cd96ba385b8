/**
 * Opening the password-based encryption of a PKCS#12 file with an empty password (or none):
 * PBES2 (PBKDF2 with AES-CBC or 3DES-CBC, RFC 8018) as OpenSSL 3 and Java 17 write it, and the
 * PKCS#12 PBE schemes (RFC 7292 appendix B key derivation with 3DES or RC2) of older tools.
 * Iteration counts come from the file, so each derivation is capped and charged to a per-file
 * budget: a hostile file cannot make the reader spin.
 */
import { createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import {
  type AlgorithmIdentifierNode,
  algorithmIdentifierOf,
  childrenOf,
  integerOf,
  octetsOf,
} from './der.js';
import { rc2CbcDecrypt } from './rc2.js';

/** Iterations left for this file; each derivation is charged before it runs. */
export interface KdfBudget {
  iterations: number;
}

/** Per derivation: well above every tool's default (OpenSSL 2048, Java 10000, Windows 2000). */
export const MAX_KDF_ITERATIONS = 200_000;

export type Decryption =
  | { ok: true; plaintext: Buffer }
  | { ok: false; reason: 'password' | 'unsupported' | 'limit'; detail: string };

const PBES2 = '1.2.840.113549.1.5.13';
const PBKDF2 = '1.2.840.113549.1.5.12';
const PKCS12_PBE = '1.2.840.113549.1.12.1.';

const PRFS: Record<string, string> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};

const PBES2_CIPHERS: Record<string, { name: string; keyLength: number }> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { name: 'des-ede3-cbc', keyLength: 24 },
};

/** The PKCS#12 PBE schemes: cipher, key bytes, RC2 effective bits. */
const PKCS12_SCHEMES: Record<string, { cipher: 'des-ede3-cbc' | 'rc2'; keyLength: number }> = {
  '3': { cipher: 'des-ede3-cbc', keyLength: 24 },
  '4': { cipher: 'des-ede3-cbc', keyLength: 16 },
  '5': { cipher: 'rc2', keyLength: 16 },
  '6': { cipher: 'rc2', keyLength: 5 },
};

/** Charge `derivations` runs of `iterations` each; a limit problem when over. */
function charge(budget: KdfBudget, iterations: number, derivations = 1): Decryption | undefined {
  const cost = iterations * derivations;
  if (iterations < 1 || iterations > MAX_KDF_ITERATIONS || cost > budget.iterations) {
    return { ok: false, reason: 'limit', detail: `an iteration count of ${iterations}` };
  }
  budget.iterations -= cost;
  return undefined;
}

function nodeDecrypt(
  cipher: string,
  key: Buffer,
  iv: Uint8Array,
  data: Uint8Array,
): Buffer | undefined {
  try {
    const decipher = createDecipheriv(cipher, key, iv);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  } catch {
    return undefined;
  }
}

function pbes2(
  parameters: AlgorithmIdentifierNode['parameters'],
  data: Uint8Array,
  budget: KdfBudget,
): Decryption {
  const [kdfNode, schemeNode] = childrenOf(parameters);
  const kdf = algorithmIdentifierOf(kdfNode);
  const scheme = algorithmIdentifierOf(schemeNode);
  const cipher = scheme ? PBES2_CIPHERS[scheme.oid] : undefined;
  const iv = octetsOf(scheme?.parameters);
  if (kdf?.oid !== PBKDF2 || !cipher || !iv) {
    return { ok: false, reason: 'unsupported', detail: 'a PBES2 scheme this reader does not know' };
  }
  const fields = childrenOf(kdf.parameters);
  const salt = octetsOf(fields[0]);
  const iterations = integerOf(fields[1]) ?? 0;
  const prfNode = fields.find((field, index) => index >= 2 && childrenOf(field).length > 0);
  const prf = prfNode ? PRFS[algorithmIdentifierOf(prfNode)?.oid ?? ''] : 'sha1';
  if (!salt || !prf) return { ok: false, reason: 'unsupported', detail: 'a PBKDF2 it cannot read' };
  const overLimit = charge(budget, iterations);
  if (overLimit) return overLimit;
  const key = pbkdf2Sync(Buffer.alloc(0), salt, iterations, cipher.keyLength, prf);
  const plaintext = nodeDecrypt(cipher.name, key, iv, data);
  return plaintext
    ? { ok: true, plaintext }
    : { ok: false, reason: 'password', detail: 'encrypted with a password' };
}

/** RFC 7292 appendix B.2 with SHA-1: `id` 1 for the key, 2 for the IV. */
export function pkcs12Kdf(
  password: Buffer,
  salt: Uint8Array,
  id: number,
  iterations: number,
  length: number,
): Buffer {
  const u = 20;
  const v = 64;
  const fill = (source: Uint8Array): Buffer => {
    if (source.length === 0) return Buffer.alloc(0);
    const out = Buffer.alloc(v * Math.ceil(source.length / v));
    for (let index = 0; index < out.length; index++)
      out[index] = source[index % source.length] ?? 0;
    return out;
  };
  const input = Buffer.concat([fill(salt), fill(password)]);
  const diversifier = Buffer.alloc(v, id);
  const output: Buffer[] = [];
  for (let produced = 0; produced < length; produced += u) {
    let digest = createHash('sha1').update(diversifier).update(input).digest();
    for (let round = 1; round < iterations; round++)
      digest = createHash('sha1').update(digest).digest();
    output.push(digest);
    addBlockToEachChunk(input, digest, v);
  }
  return Buffer.concat(output).subarray(0, length);
}

/** I_j = (I_j + B + 1) mod 2^(v*8) for each v-byte chunk, B being `digest` repeated. */
function addBlockToEachChunk(input: Buffer, digest: Buffer, v: number): void {
  for (let chunk = 0; chunk < input.length; chunk += v) {
    let carry = 1;
    for (let index = v - 1; index >= 0; index--) {
      const sum = (input[chunk + index] ?? 0) + (digest[index % digest.length] ?? 0) + carry;
      input[chunk + index] = sum & 255;
      carry = sum >> 8;
    }
  }
}

/** An empty password as PKCS#12 writes it (a BMPString's terminating zero), then no password. */
const PKCS12_EMPTY_PASSWORDS = [Buffer.alloc(2), Buffer.alloc(0)];

function pkcs12Pbe(
  schemeId: string,
  parameters: AlgorithmIdentifierNode['parameters'],
  data: Uint8Array,
  budget: KdfBudget,
  accept: (plaintext: Buffer) => boolean,
): Decryption {
  const scheme = PKCS12_SCHEMES[schemeId];
  const [saltNode, iterationsNode] = childrenOf(parameters);
  const salt = octetsOf(saltNode);
  const iterations = integerOf(iterationsNode) ?? 0;
  if (!scheme || !salt) {
    return {
      ok: false,
      reason: 'unsupported',
      detail: 'a PKCS#12 scheme this reader does not know',
    };
  }
  for (const password of PKCS12_EMPTY_PASSWORDS) {
    const overLimit = charge(budget, iterations, Math.ceil(scheme.keyLength / 20) + 1);
    if (overLimit) return overLimit;
    const key = pkcs12Kdf(password, salt, 1, iterations, scheme.keyLength);
    const iv = pkcs12Kdf(password, salt, 2, iterations, 8);
    const plaintext =
      scheme.cipher === 'rc2'
        ? rc2CbcDecrypt(key, scheme.keyLength * 8, iv, data)
        : nodeDecrypt(
            'des-ede3-cbc',
            scheme.keyLength === 16 ? Buffer.concat([key, key.subarray(0, 8)]) : key,
            iv,
            data,
          );
    if (plaintext && accept(plaintext)) return { ok: true, plaintext };
  }
  return { ok: false, reason: 'password', detail: 'encrypted with a password' };
}

/**
 * Decrypt `data` as encrypted by `algorithm` with an empty password. `accept` checks that a
 * plaintext is what was expected (a wrong password passes the padding check one time in 256).
 */
export function decryptWithEmptyPassword(
  algorithm: AlgorithmIdentifierNode,
  data: Uint8Array,
  budget: KdfBudget,
  accept: (plaintext: Buffer) => boolean,
): Decryption {
  if (algorithm.oid === PBES2) {
    const result = pbes2(algorithm.parameters, data, budget);
    if (result.ok && !accept(result.plaintext)) {
      return { ok: false, reason: 'password', detail: 'encrypted with a password' };
    }
    return result;
  }
  if (algorithm.oid.startsWith(PKCS12_PBE)) {
    return pkcs12Pbe(
      algorithm.oid.slice(PKCS12_PBE.length),
      algorithm.parameters,
      data,
      budget,
      accept,
    );
  }
  return { ok: false, reason: 'unsupported', detail: `encryption ${algorithm.oid}` };
}

/**
 * OpenSSH keys: public key lines (`ssh-ed25519 AAAA... comment`, in .pub files, authorized_keys,
 * or pasted into configuration) and the public half of an `OPENSSH PRIVATE KEY` (PROTOCOL.key:
 * the public keys are stored unencrypted, so the algorithm is known even when the private part
 * is encrypted). The wire format (RFC 4251 strings and mpints) is read with a bounds-checked
 * reader; the private section is never decoded.
 */

import type { KeyDescription } from './key-structures.js';
import { curveByName } from './oids.js';
import { printable } from './printable.js';

/** Key types a public key line can start with, and the markers a content sniff looks for. */
export const SSH_KEY_TYPES = [
  'ssh-rsa',
  'ssh-dss',
  'ssh-ed25519',
  'ssh-ed448',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;

const MAX_BLOB = 16 * 1024;
const MAX_OPENSSH_KEYS = 16;

/** Reads RFC 4251 fields; every read is checked against the end of the buffer. */
class WireReader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}

  uint32(): number | undefined {
    if (this.offset + 4 > this.bytes.length) return undefined;
    const value = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  string(): Buffer | undefined {
    const length = this.uint32();
    if (length === undefined || this.offset + length > this.bytes.length) return undefined;
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
}

function mpintBits(value: Buffer | undefined): number | undefined {
  if (!value) return undefined;
  let start = 0;
  while (start < value.length && value[start] === 0) start++;
  if (start === value.length) return undefined;
  return (value.length - start - 1) * 8 + (32 - Math.clz32(value[start] ?? 0));
}

/** The algorithm of an SSH public key blob, when its fields are all there. */
export function describeSshPublicBlob(blob: Buffer): KeyDescription | undefined {
  const reader = new WireReader(blob);
  const type = reader.string()?.toString('latin1');
  switch (type) {
    case 'ssh-rsa': {
      reader.string();
      const bits = mpintBits(reader.string());
      return bits ? { algorithm: 'RSA', keySize: bits } : undefined;
    }
    case 'ssh-dss': {
      const bits = mpintBits(reader.string());
      return bits && reader.string() && reader.string() && reader.string()
        ? { algorithm: 'DSA', keySize: bits }
        : undefined;
    }
    case 'ssh-ed25519':
    case 'sk-ssh-ed25519@openssh.com':
      return reader.string()?.length === 32 ? { algorithm: 'EdDSA', curve: 'Ed25519' } : undefined;
    case 'ssh-ed448':
      return reader.string()?.length === 57 ? { algorithm: 'EdDSA', curve: 'Ed448' } : undefined;
    case 'ecdsa-sha2-nistp256':
    case 'ecdsa-sha2-nistp384':
    case 'ecdsa-sha2-nistp521':
    case 'sk-ecdsa-sha2-nistp256@openssh.com': {
      const curve = curveByName(reader.string()?.toString('latin1') ?? '');
      if (!curve.bits || !reader.string()) return undefined;
      return { algorithm: 'ECDSA', curve: curve.name, keySize: curve.bits };
    }
    default:
      return undefined;
  }
}

const BASE64_CHAR = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=') {
  BASE64_CHAR[char.charCodeAt(0)] = 1;
}

/** The run of base64 characters starting at `start`, at most MAX_BLOB long once decoded. */
function base64Run(text: string, start: number): string {
  let end = start;
  const limit = Math.min(text.length, start + Math.ceil((MAX_BLOB * 4) / 3) + 4);
  while (end < limit) {
    const code = text.charCodeAt(end);
    if (code >= 128 || BASE64_CHAR[code] !== 1) break;
    end++;
  }
  return text.slice(start, end);
}

export interface SshPublicKeyLine extends KeyDescription {
  line: number;
  label?: string;
}

/** The comment after the key on its line, trimmed and bounded; absent when empty. */
function commentAfter(text: string, start: number): string | undefined {
  const lineEnd = text.indexOf('\n', start);
  const rest = text.slice(start, lineEnd === -1 ? Math.min(text.length, start + 256) : lineEnd);
  return rest.includes('"') ? undefined : printable(rest);
}

/**
 * Each `TYPE BASE64` pair in the text whose blob decodes to a key of the same type: the type
 * must start a token (line start, space, quote, comma or `=`), and the decoded blob must name
 * the type again, so a string such as `'ssh-rsa ' + key` in source code is not a key.
 */
export function findSshPublicKeys(text: string, maxKeys: number): SshPublicKeyLine[] {
  const found: { offset: number; key: SshPublicKeyLine }[] = [];
  for (const type of SSH_KEY_TYPES) {
    let position = text.indexOf(`${type} `);
    while (position !== -1 && found.length < maxKeys) {
      const key = keyAt(text, position, type);
      if (key) found.push({ offset: position, key });
      position = text.indexOf(`${type} `, position + type.length + 1);
    }
  }
  found.sort((a, b) => a.offset - b.offset);
  return numberLines(text, found);
}

function keyAt(text: string, position: number, type: string): SshPublicKeyLine | undefined {
  const before = position === 0 ? '\n' : text[position - 1];
  if (before && !' \t\n\r"\'`,=:['.includes(before)) return undefined;
  const start = position + type.length + 1;
  const encoded = base64Run(text, start);
  if (encoded.length < 16) return undefined;
  const blob = Buffer.from(encoded, 'base64');
  const inner = new WireReader(blob).string()?.toString('latin1');
  if (inner !== type) return undefined;
  const description = describeSshPublicBlob(blob);
  if (!description) return undefined;
  const label = commentAfter(text, start + encoded.length);
  return { ...description, line: 0, ...(label !== undefined && { label }) };
}

function numberLines(
  text: string,
  found: { offset: number; key: SshPublicKeyLine }[],
): SshPublicKeyLine[] {
  let line = 1;
  let counted = 0;
  return found.map(({ offset, key }) => {
    let next = text.indexOf('\n', counted);
    while (next !== -1 && next < offset) {
      line++;
      next = text.indexOf('\n', next + 1);
    }
    counted = offset;
    return { ...key, line };
  });
}

export interface OpenSshPrivateKey {
  keys: KeyDescription[];
  encrypted: boolean;
}

const OPENSSH_MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');

/** The public keys and the cipher of an `OPENSSH PRIVATE KEY` body. */
export function describeOpenSshPrivateKey(bytes: Buffer): OpenSshPrivateKey | undefined {
  if (!bytes.subarray(0, OPENSSH_MAGIC.length).equals(OPENSSH_MAGIC)) return undefined;
  const reader = new WireReader(bytes.subarray(OPENSSH_MAGIC.length));
  const cipher = reader.string()?.toString('latin1');
  const kdf = reader.string();
  const kdfOptions = reader.string();
  const count = reader.uint32();
  if (cipher === undefined || !kdf || !kdfOptions || count === undefined) return undefined;
  const keys: KeyDescription[] = [];
  for (let index = 0; index < Math.min(count, MAX_OPENSSH_KEYS); index++) {
    const blob = reader.string();
    const description = blob ? describeSshPublicBlob(blob) : undefined;
    if (!description) break;
    keys.push(description);
  }
  return keys.length > 0 ? { keys, encrypted: cipher !== 'none' } : undefined;
}

/**
 * Java keystores in the JKS and JCEKS formats (the JDK's JavaKeyStore and JceKeyStore): magic,
 * version, entry count, then entries of an alias, a date and either a protected private key
 * with its certificate chain or a trusted certificate. Certificates are stored in the clear, so
 * they are read without the store password; private keys stay encrypted and are described by
 * the first certificate of their chain. No maintained JavaScript reader exists, so this is a
 * small reader of that documented layout in which every length is checked against the bytes
 * left. JCEKS secret-key entries are Java-serialised objects: reading stops there.
 */
import type { KeystoreContents } from './pkcs12.js';
import { printable } from './printable.js';

const JKS_MAGIC = 0xfeedfeed;
const JCEKS_MAGIC = 0xcececece;
const PRIVATE_KEY_ENTRY = 1;
const TRUSTED_CERTIFICATE_ENTRY = 2;
const SECRET_KEY_ENTRY = 3;
const MAX_ENTRIES = 1024;
const MAX_CHAIN = 16;

export type JavaKeystoreType = 'jks' | 'jceks';

export function javaKeystoreType(bytes: Uint8Array): JavaKeystoreType | undefined {
  if (bytes.length < 12) return undefined;
  const magic = Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32BE(0);
  if (magic === JKS_MAGIC) return 'jks';
  if (magic === JCEKS_MAGIC) return 'jceks';
  return undefined;
}

class TruncatedError extends Error {}

class StreamReader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}

  private need(count: number): void {
    if (count < 0 || this.offset + count > this.bytes.length) throw new TruncatedError();
  }

  int(): number {
    this.need(4);
    const value = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  skip(count: number): void {
    this.need(count);
    this.offset += count;
  }

  bytesOf(count: number): Buffer {
    this.need(count);
    const value = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return value;
  }

  /** Java's writeUTF: a 16-bit length, then modified UTF-8 (plain UTF-8 for what we show). */
  utf(): string {
    this.need(2);
    const length = this.bytes.readUInt16BE(this.offset);
    this.offset += 2;
    return this.bytesOf(length).toString('utf8');
  }
}

function readCertificate(reader: StreamReader, version: number): Buffer | undefined {
  const type = version === 2 ? reader.utf() : 'X.509';
  const der = reader.bytesOf(reader.int());
  return type === 'X.509' ? der : undefined;
}

function readEntry(reader: StreamReader, version: number, contents: KeystoreContents): boolean {
  const tag = reader.int();
  const alias = printable(reader.utf());
  reader.skip(8);
  const labels = alias ? { alias } : {};
  if (tag === PRIVATE_KEY_ENTRY) {
    reader.skip(reader.int());
    const chainLength = reader.int();
    if (chainLength > MAX_CHAIN) throw new TruncatedError();
    const keyId = `entry-${contents.keys.length}`;
    contents.keys.push({ encrypted: true, ...labels, keyId });
    for (let index = 0; index < chainLength; index++) {
      const der = readCertificate(reader, version);
      if (der) contents.certificates.push({ der, ...labels, ...(index === 0 && { keyId }) });
    }
    return true;
  }
  if (tag === TRUSTED_CERTIFICATE_ENTRY) {
    const der = readCertificate(reader, version);
    if (der) contents.certificates.push({ der, ...labels });
    return true;
  }
  contents.problems.push(
    tag === SECRET_KEY_ENTRY
      ? 'a JCEKS secret-key entry (a Java-serialised object); the entries after it were not read'
      : `an unknown keystore entry type ${tag}; the entries after it were not read`,
  );
  return false;
}

/** The certificates and key entries of a JKS or JCEKS keystore. */
export function readJavaKeystore(bytes: Uint8Array): KeystoreContents {
  const contents: KeystoreContents = { certificates: [], keys: [], problems: [] };
  const reader = new StreamReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  try {
    reader.int();
    const version = reader.int();
    if (version !== 1 && version !== 2) {
      contents.problems.push(`keystore version ${version} is not one this reader knows`);
      return contents;
    }
    const count = reader.int();
    // Every entry takes at least 14 bytes, so the count cannot outrun the file.
    for (let index = 0; index < Math.min(count, MAX_ENTRIES); index++) {
      if (!readEntry(reader, version, contents)) return contents;
    }
    if (count > MAX_ENTRIES) {
      contents.problems.push(
        `the keystore claims ${count} entries; the first ${MAX_ENTRIES} were read`,
      );
    }
  } catch (error) {
    if (!(error instanceof TruncatedError)) throw error;
    contents.problems.push(
      'the keystore is truncated or malformed; the entries before that were read',
    );
  }
  return contents;
}

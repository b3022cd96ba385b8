/**
 * RC2-CBC decryption (RFC 2268), only to read the certificates of PKCS#12 files written by
 * OpenSSL 1.x and Java 8 keytool, which encrypt them with pbeWithSHA1And40BitRC2-CBC. Node 20's
 * OpenSSL has RC2 only in its legacy provider, which Node does not load. Nothing secret depends
 * on this code: it opens files whose password is empty.
 */

// biome-ignore format: the RFC's table, sixteen to a row
const PITABLE = Uint8Array.from([
  0xd9, 0x78, 0xf9, 0xc4, 0x19, 0xdd, 0xb5, 0xed, 0x28, 0xe9, 0xfd, 0x79, 0x4a, 0xa0, 0xd8, 0x9d,
  0xc6, 0x7e, 0x37, 0x83, 0x2b, 0x76, 0x53, 0x8e, 0x62, 0x4c, 0x64, 0x88, 0x44, 0x8b, 0xfb, 0xa2,
  0x17, 0x9a, 0x59, 0xf5, 0x87, 0xb3, 0x4f, 0x13, 0x61, 0x45, 0x6d, 0x8d, 0x09, 0x81, 0x7d, 0x32,
  0xbd, 0x8f, 0x40, 0xeb, 0x86, 0xb7, 0x7b, 0x0b, 0xf0, 0x95, 0x21, 0x22, 0x5c, 0x6b, 0x4e, 0x82,
  0x54, 0xd6, 0x65, 0x93, 0xce, 0x60, 0xb2, 0x1c, 0x73, 0x56, 0xc0, 0x14, 0xa7, 0x8c, 0xf1, 0xdc,
  0x12, 0x75, 0xca, 0x1f, 0x3b, 0xbe, 0xe4, 0xd1, 0x42, 0x3d, 0xd4, 0x30, 0xa3, 0x3c, 0xb6, 0x26,
  0x6f, 0xbf, 0x0e, 0xda, 0x46, 0x69, 0x07, 0x57, 0x27, 0xf2, 0x1d, 0x9b, 0xbc, 0x94, 0x43, 0x03,
  0xf8, 0x11, 0xc7, 0xf6, 0x90, 0xef, 0x3e, 0xe7, 0x06, 0xc3, 0xd5, 0x2f, 0xc8, 0x66, 0x1e, 0xd7,
  0x08, 0xe8, 0xea, 0xde, 0x80, 0x52, 0xee, 0xf7, 0x84, 0xaa, 0x72, 0xac, 0x35, 0x4d, 0x6a, 0x2a,
  0x96, 0x1a, 0xd2, 0x71, 0x5a, 0x15, 0x49, 0x74, 0x4b, 0x9f, 0xd0, 0x5e, 0x04, 0x18, 0xa4, 0xec,
  0xc2, 0xe0, 0x41, 0x6e, 0x0f, 0x51, 0xcb, 0xcc, 0x24, 0x91, 0xaf, 0x50, 0xa1, 0xf4, 0x70, 0x39,
  0x99, 0x7c, 0x3a, 0x85, 0x23, 0xb8, 0xb4, 0x7a, 0xfc, 0x02, 0x36, 0x5b, 0x25, 0x55, 0x97, 0x31,
  0x2d, 0x5d, 0xfa, 0x98, 0xe3, 0x8a, 0x92, 0xae, 0x05, 0xdf, 0x29, 0x10, 0x67, 0x6c, 0xba, 0xc9,
  0xd3, 0x00, 0xe6, 0xcf, 0xe1, 0x9e, 0xa8, 0x2c, 0x63, 0x16, 0x01, 0x3f, 0x58, 0xe2, 0x89, 0xa9,
  0x0d, 0x38, 0x34, 0x1b, 0xab, 0x33, 0xff, 0xb0, 0xbb, 0x48, 0x0c, 0x5f, 0xb9, 0xb1, 0xcd, 0x2e,
  0xc5, 0xf3, 0xdb, 0x47, 0xe5, 0xa5, 0x9c, 0x77, 0x0a, 0xa6, 0x20, 0x68, 0xfe, 0x7f, 0xc1, 0xad,
]);

/** RFC 2268 section 2: 64 16-bit subkeys from a key of 1 to 128 bytes and its effective bits. */
export function rc2KeySchedule(key: Uint8Array, effectiveBits: number): Uint16Array {
  const length = key.length;
  if (length < 1 || length > 128 || effectiveBits < 1 || effectiveBits > 1024) {
    throw new RangeError('RC2 key or effective bits out of range');
  }
  const expanded = new Uint8Array(128);
  expanded.set(key);
  for (let index = length; index < 128; index++) {
    expanded[index] =
      PITABLE[((expanded[index - 1] ?? 0) + (expanded[index - length] ?? 0)) & 255] ?? 0;
  }
  const effectiveBytes = Math.ceil(effectiveBits / 8);
  const mask = 255 >> (8 * effectiveBytes - effectiveBits);
  const first = 128 - effectiveBytes;
  expanded[first] = PITABLE[(expanded[first] ?? 0) & mask] ?? 0;
  for (let index = first - 1; index >= 0; index--) {
    expanded[index] =
      PITABLE[(expanded[index + 1] ?? 0) ^ (expanded[index + effectiveBytes] ?? 0)] ?? 0;
  }
  const subkeys = new Uint16Array(64);
  for (let index = 0; index < 64; index++) {
    subkeys[index] = (expanded[2 * index] ?? 0) | ((expanded[2 * index + 1] ?? 0) << 8);
  }
  return subkeys;
}

const SHIFTS = [1, 2, 3, 5] as const;

/** Decrypt one 8-byte block in place (words are little-endian). */
export function rc2DecryptBlock(subkeys: Uint16Array, block: Uint8Array): void {
  const r = [0, 1, 2, 3].map((i) => (block[2 * i] ?? 0) | ((block[2 * i + 1] ?? 0) << 8));
  let j = 63;
  const mix = (): void => {
    for (let i = 3; i >= 0; i--) {
      const value = r[i] ?? 0;
      const shift = SHIFTS[i] ?? 0;
      const rotated = ((value >>> shift) | (value << (16 - shift))) & 0xffff;
      const a = r[(i + 3) % 4] ?? 0;
      const b = r[(i + 2) % 4] ?? 0;
      const c = r[(i + 1) % 4] ?? 0;
      r[i] = (rotated - (subkeys[j] ?? 0) - (a & b) - (~a & c)) & 0xffff;
      j--;
    }
  };
  const mash = (): void => {
    for (let i = 3; i >= 0; i--) {
      r[i] = ((r[i] ?? 0) - (subkeys[(r[(i + 3) % 4] ?? 0) & 63] ?? 0)) & 0xffff;
    }
  };
  const rounds = (count: number): void => {
    for (let round = 0; round < count; round++) mix();
  };
  rounds(5);
  mash();
  rounds(6);
  mash();
  rounds(5);
  for (let i = 0; i < 4; i++) {
    block[2 * i] = (r[i] ?? 0) & 255;
    block[2 * i + 1] = (r[i] ?? 0) >>> 8;
  }
}

/** RC2-CBC with PKCS#7 padding; undefined when the padding is wrong (a wrong key, mostly). */
export function rc2CbcDecrypt(
  key: Uint8Array,
  effectiveBits: number,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Buffer | undefined {
  if (ciphertext.length === 0 || ciphertext.length % 8 !== 0 || iv.length !== 8) return undefined;
  const subkeys = rc2KeySchedule(key, effectiveBits);
  const plain = Buffer.from(ciphertext);
  for (let offset = plain.length - 8; offset >= 0; offset -= 8) {
    const block = plain.subarray(offset, offset + 8);
    rc2DecryptBlock(subkeys, block);
    const previous = offset === 0 ? iv : ciphertext.subarray(offset - 8, offset);
    for (let index = 0; index < 8; index++)
      block[index] = (block[index] ?? 0) ^ (previous[index] ?? 0);
  }
  const pad = plain[plain.length - 1] ?? 0;
  if (pad < 1 || pad > 8) return undefined;
  for (let index = plain.length - pad; index < plain.length; index++) {
    if (plain[index] !== pad) return undefined;
  }
  return plain.subarray(0, plain.length - pad);
}

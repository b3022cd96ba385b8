/**
 * Bounds-checked reading and length-prefixed writing of TLS wire structures (RFC 8446 section 3).
 * The reader throws `MalformedBytes` on any read past its end; every decoder in this folder
 * catches it at its top and returns a parse problem, so hostile bytes never escape as an
 * exception and every loop advances by at least one byte or stops.
 */

export class MalformedBytes extends Error {}

export class ByteReader {
  private offset: number;
  private readonly end: number;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
    end = bytes.length,
  ) {
    this.offset = start;
    this.end = Math.min(end, bytes.length);
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  private need(count: number, what: string): void {
    if (count > this.remaining) throw new MalformedBytes(`${what} runs past the end`);
  }

  u8(what = 'a byte'): number {
    this.need(1, what);
    const value = this.bytes[this.offset]!;
    this.offset += 1;
    return value;
  }

  u16(what = 'a 16-bit value'): number {
    this.need(2, what);
    const value = (this.bytes[this.offset]! << 8) | this.bytes[this.offset + 1]!;
    this.offset += 2;
    return value;
  }

  u24(what = 'a 24-bit length'): number {
    this.need(3, what);
    const at = this.offset;
    this.offset += 3;
    return (this.bytes[at]! << 16) | (this.bytes[at + 1]! << 8) | this.bytes[at + 2]!;
  }

  take(count: number, what = 'a field'): Uint8Array {
    this.need(count, what);
    const value = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return value;
  }

  /** Everything left. */
  rest(): Uint8Array {
    return this.take(this.remaining);
  }

  /** A sub-reader over the next `count` bytes (a length-prefixed vector's body). */
  sub(count: number, what = 'a vector'): ByteReader {
    this.need(count, what);
    const reader = new ByteReader(this.bytes, this.offset, this.offset + count);
    this.offset += count;
    return reader;
  }

  /** The body of a vector prefixed by a 1- or 2-byte length. */
  vector(lengthBytes: 1 | 2, what: string): ByteReader {
    const length = lengthBytes === 1 ? this.u8(`${what} length`) : this.u16(`${what} length`);
    return this.sub(length, what);
  }

  /** A list of 16-bit values filling this reader (an odd byte left over is malformed). */
  u16List(what: string): number[] {
    if (this.remaining % 2 !== 0) throw new MalformedBytes(`${what} has an odd length`);
    const values: number[] = [];
    while (this.remaining > 0) values.push(this.u16(what));
    return values;
  }
}

/** Big-endian bytes of `value` in `width` bytes. */
export function uint(value: number, width: 1 | 2 | 3): Buffer {
  const out = Buffer.alloc(width);
  out.writeUIntBE(value, 0, width);
  return out;
}

/** `body` prefixed by its length in `width` bytes (a TLS vector). */
export function withLength(width: 1 | 2 | 3, ...parts: Uint8Array[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([uint(body.length, width), body]);
}

/** A list of 16-bit values, prefixed by its byte length in `width` bytes. */
export function u16Vector(width: 1 | 2, values: readonly number[]): Buffer {
  return withLength(width, ...values.map((value) => uint(value, 2)));
}

/**
 * The TLS record layer as far as the first handshake message (RFC 8446 section 5.1): reassembles
 * TLSPlaintext records that arrive split across reads and a handshake message split across
 * records, and stops at the first complete handshake message or alert. Every record is looked
 * at once and bytes are copied a bounded number of times, so a server trickling one byte per
 * read costs linear work; the byte cap ends the read either way.
 */

import { ByteReader, MalformedBytes } from './bytes.js';

export const CONTENT_TYPE = {
  changeCipherSpec: 20,
  alert: 21,
  handshake: 22,
  applicationData: 23,
} as const;

export const HANDSHAKE_TYPE = { clientHello: 1, serverHello: 2 } as const;

/** TLSPlaintext.length may not exceed 2^14; TLSCiphertext adds at most 256. */
const MAX_RECORD = 2 ** 14 + 256;

/** How much of an answer the probe reads before it gives up on it. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024;

export type FirstMessage =
  | { kind: 'handshake'; type: number; body: Uint8Array }
  | { kind: 'alert'; level: number; description: number }
  | { kind: 'malformed'; problem: string };

export interface FirstMessageReader {
  /** Feed bytes as they arrive: the first message or alert once complete, otherwise null. */
  push(chunk: Uint8Array): FirstMessage | null;
}

/** Fragments kept as a list, joined only when enough bytes are there for the next step. */
class Pending {
  private parts: Buffer[] = [];
  length = 0;
  /** Bytes needed before the next look: a header, then the whole unit the header announced. */
  need: number;

  constructor(headerLength: number) {
    this.need = headerLength;
  }

  get ready(): boolean {
    return this.length >= this.need;
  }

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    this.length += chunk.length;
  }

  joined(): Buffer {
    if (this.parts.length > 1) this.parts = [Buffer.concat(this.parts, this.length)];
    return this.parts[0] ?? Buffer.alloc(0);
  }

  /** Drop the first `count` bytes (they have been used). */
  consume(count: number): void {
    const rest = this.joined().subarray(count);
    this.parts = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
  }
}

export function createFirstMessageReader(maxBytes = DEFAULT_MAX_ANSWER_BYTES): FirstMessageReader {
  const records = new Pending(5);
  const handshake = new Pending(4);
  let received = 0;
  let done: FirstMessage | null = null;

  const fromRecords = (): FirstMessage | null => {
    while (records.ready) {
      const bytes = records.joined();
      const type = bytes[0]!;
      const length = bytes.readUInt16BE(3);
      const problem = recordHeaderProblem(type, bytes[1]!, length);
      if (problem) return { kind: 'malformed', problem };
      records.need = 5 + length;
      if (!records.ready) return null;
      const fragment = Buffer.from(bytes.subarray(5, 5 + length));
      records.consume(5 + length);
      records.need = 5;
      const message = fromRecord(type, fragment, handshake, maxBytes);
      if (message) return message;
    }
    return null;
  };

  return {
    push(chunk) {
      if (done) return done;
      received += chunk.length;
      records.add(chunk);
      done = fromRecords();
      if (!done && received > maxBytes) {
        done = { kind: 'malformed', problem: `no complete answer in the first ${maxBytes} bytes` };
      }
      return done;
    },
  };
}

function recordHeaderProblem(type: number, major: number, length: number): string | null {
  if (type < CONTENT_TYPE.changeCipherSpec || type > CONTENT_TYPE.applicationData) {
    return 'the answer is not a TLS record';
  }
  if (major !== 3) return 'the answer is not a TLS record';
  if (length === 0) return 'an empty TLS record';
  if (length > MAX_RECORD) return 'a TLS record longer than the protocol allows';
  return null;
}

/** One whole record: an alert, a piece of the handshake, or something out of place. */
function fromRecord(
  type: number,
  fragment: Buffer,
  handshake: Pending,
  maxBytes: number,
): FirstMessage | null {
  switch (type) {
    case CONTENT_TYPE.alert:
      if (fragment.length < 2) return { kind: 'malformed', problem: 'a truncated alert' };
      return { kind: 'alert', level: fragment[0]!, description: fragment[1]! };
    case CONTENT_TYPE.changeCipherSpec:
      return null; // middlebox compatibility (RFC 8446 section D.4): carries nothing
    case CONTENT_TYPE.applicationData:
      return { kind: 'malformed', problem: 'encrypted records before the first handshake message' };
    default:
      handshake.add(fragment);
      return firstHandshakeMessage(handshake, maxBytes);
  }
}

function firstHandshakeMessage(handshake: Pending, maxBytes: number): FirstMessage | null {
  if (!handshake.ready) return null;
  const bytes = handshake.joined();
  const length = bytes.readUIntBE(1, 3);
  if (length > maxBytes) {
    return {
      kind: 'malformed',
      problem: `a handshake message of ${length} bytes (limit ${maxBytes})`,
    };
  }
  handshake.need = 4 + length;
  if (!handshake.ready) return null;
  return { kind: 'handshake', type: bytes[0]!, body: bytes.subarray(4, 4 + length) };
}

/**
 * Run a decoder over a message body: a `MalformedBytes` thrown anywhere inside becomes a parse
 * problem, and bytes left over after the structure are one too.
 */
export function decodeBody<T>(
  body: Uint8Array,
  decode: (reader: ByteReader) => T,
): { ok: true; value: T } | { ok: false; problem: string } {
  try {
    const reader = new ByteReader(body);
    const value = decode(reader);
    if (reader.remaining > 0) return { ok: false, problem: 'bytes left over after the message' };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof MalformedBytes) return { ok: false, problem: error.message };
    throw error;
  }
}

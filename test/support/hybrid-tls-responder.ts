import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { Server as TlsServer } from 'node:tls';

/**
 * A raw TLS 1.3 responder for the hybrid-group probe, written from RFC 8446's byte layout
 * (§4.1.2 ClientHello, §4.1.3 ServerHello, §4.1.4 HelloRetryRequest, §5.1 records, §6 alerts)
 * and independently of src/cryptography/tls, so a misreading of the RFC in the probe is not
 * mirrored here. It reads one ClientHello, records what it offered, and answers as its mode
 * says; it never completes a handshake.
 */

export type ResponderMode =
  /** A HelloRetryRequest selecting X25519MLKEM768 (handshake_failure if it was not offered). */
  | 'hello-retry'
  /** A ServerHello whose key_share is X25519MLKEM768: 1120 bytes (ciphertext 1088 ‖ X25519 32). */
  | 'server-hello-hybrid'
  /** Like Go's crypto/tls: a group the client sent a share for wins, else HRR to the hybrid. */
  | 'prefer-key-share'
  /** A classical TLS 1.3 server: ServerHello on x25519, or HRR to x25519 without a share. */
  | 'classical'
  /** A TLS-1.2-only server: a ServerHello without supported_versions, then ServerHelloDone. */
  | 'tls12'
  | 'alert'
  /** An HTTP answer, as a plain-text server on a TLS port gives. */
  | 'garbage'
  /** Reads the hello and never answers. */
  | 'hang'
  /** The HRR split over two records and written one byte at a time. */
  | 'trickle'
  /** A handshake message announcing 1 MiB, sent in full 16 KiB records. */
  | 'oversized'
  /** ChangeCipherSpec records without end. */
  | 'flood'
  /** Closes the connection as soon as the hello arrives. */
  | 'close';

export const X25519MLKEM768 = 0x11ec;
export const X25519 = 0x001d;
const HRR_RANDOM = Buffer.from(
  'cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c',
  'hex',
);

/** What one ClientHello offered. */
export interface ReceivedHello {
  serverName: string | null;
  groups: number[];
  keyShares: { group: number; length: number }[];
  supportedVersions: number[];
  cipherSuites: number[];
  signatureSchemes: number[];
  sessionId: Buffer;
}

export interface HybridResponder {
  port: number;
  received: ReceivedHello[];
  close: () => Promise<void>;
}

export interface ResponderOptions {
  /**
   * Hand a connection whose hello does not offer X25519MLKEM768 (Node's own client) to this
   * TLS server, so one port acts as a hybrid-capable server to the probe and completes a real
   * handshake for observeTls.
   */
  forwardClassicalTo?: TlsServer;
}

function u16(value: number): Buffer {
  return Buffer.from([value >> 8, value & 0xff]);
}

function u24(value: number): Buffer {
  return Buffer.from([value >> 16, (value >> 8) & 0xff, value & 0xff]);
}

function u16List(bytes: Buffer, start: number, length: number): number[] {
  const out: number[] = [];
  for (let at = start; at + 1 < start + length; at += 2) out.push(bytes.readUInt16BE(at));
  return out;
}

/** Parse the ClientHello in `record` (one record, as the probe sends it); null if incomplete. */
export function parseClientHelloRecord(record: Buffer): ReceivedHello | null {
  if (record.length < 5 || record.length < 5 + record.readUInt16BE(3)) return null;
  // record header 5, handshake type 1 + length 3, legacy_version 2, random 32
  let at = 5 + 4 + 2 + 32;
  const sessionLength = record[at]!;
  const sessionId = Buffer.from(record.subarray(at + 1, at + 1 + sessionLength));
  at += 1 + sessionLength;
  const suitesLength = record.readUInt16BE(at);
  const hello: ReceivedHello = {
    serverName: null,
    groups: [],
    keyShares: [],
    supportedVersions: [],
    cipherSuites: u16List(record, at + 2, suitesLength),
    signatureSchemes: [],
    sessionId,
  };
  at += 2 + suitesLength;
  at += 1 + record[at]!; // compression methods
  const extensionsEnd = at + 2 + record.readUInt16BE(at);
  at += 2;
  while (at + 4 <= extensionsEnd) {
    const type = record.readUInt16BE(at);
    const length = record.readUInt16BE(at + 2);
    readExtension(type, record.subarray(at + 4, at + 4 + length), hello);
    at += 4 + length;
  }
  return hello;
}

function readExtension(type: number, data: Buffer, hello: ReceivedHello): void {
  if (type === 0) {
    // server_name_list length 2, name_type 1, host_name length 2
    hello.serverName = data.subarray(5, 5 + data.readUInt16BE(3)).toString('latin1');
  } else if (type === 10) {
    hello.groups = u16List(data, 2, data.readUInt16BE(0));
  } else if (type === 13) {
    hello.signatureSchemes = u16List(data, 2, data.readUInt16BE(0));
  } else if (type === 43) {
    hello.supportedVersions = u16List(data, 1, data[0]!);
  } else if (type === 51) {
    let at = 2;
    while (at + 4 <= 2 + data.readUInt16BE(0)) {
      const length = data.readUInt16BE(at + 2);
      hello.keyShares.push({ group: data.readUInt16BE(at), length });
      at += 4 + length;
    }
  }
}

function record(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, 0x03, 0x03]), u16(body.length), body]);
}

function extension(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type), u16(body.length), body]);
}

/** A ServerHello handshake message (RFC 8446 §4.1.3); `keyShare` is the whole extension body. */
export function serverHelloMessage(options: {
  random: Buffer;
  sessionId: Buffer;
  cipherSuite: number;
  extensions: Buffer[];
}): Buffer {
  const extensions = Buffer.concat(options.extensions);
  const body = Buffer.concat([
    u16(0x0303),
    options.random,
    Buffer.from([options.sessionId.length]),
    options.sessionId,
    u16(options.cipherSuite),
    Buffer.from([0]),
    ...(options.extensions.length > 0 ? [u16(extensions.length), extensions] : []),
  ]);
  return Buffer.concat([Buffer.from([2]), u24(body.length), body]);
}

/** A HelloRetryRequest selecting `group`, as a handshake message. */
export function helloRetryMessage(sessionId: Buffer, group: number, cipherSuite = 0x1301): Buffer {
  return serverHelloMessage({
    random: HRR_RANDOM,
    sessionId,
    cipherSuite,
    extensions: [extension(43, u16(0x0304)), extension(51, u16(group))],
  });
}

/** A TLS 1.3 ServerHello whose key share is `share` for `group`. */
export function tls13ServerHelloMessage(sessionId: Buffer, group: number, share: Buffer): Buffer {
  const keyShare = Buffer.concat([u16(group), u16(share.length), share]);
  return serverHelloMessage({
    random: randomBytes(32),
    sessionId,
    cipherSuite: 0x1301,
    extensions: [extension(43, u16(0x0304)), extension(51, keyShare)],
  });
}

/** A TLS 1.2 ServerHello (no supported_versions) followed by ServerHelloDone. */
export function tls12ServerHelloMessages(sessionId: Buffer): Buffer {
  const hello = serverHelloMessage({
    random: randomBytes(32),
    sessionId,
    cipherSuite: 0xc02f,
    extensions: [extension(0xff01, Buffer.from([0])), extension(11, Buffer.from([1, 0]))],
  });
  return Buffer.concat([hello, Buffer.from([14, 0, 0, 0])]);
}

export function handshakeRecord(message: Buffer): Buffer {
  return record(22, message);
}

export function alertRecord(description: number, level = 2): Buffer {
  return record(21, Buffer.from([level, description]));
}

const CHANGE_CIPHER_SPEC = record(20, Buffer.from([1]));

/** What a mode answers to `hello`: the bytes, or a behaviour the connection handler acts out. */
function answerFor(
  mode: ResponderMode,
  hello: ReceivedHello,
): Buffer | 'hang' | 'close' | 'trickle' | 'flood' {
  const offered = (group: number) => hello.groups.includes(group);
  const shared = (group: number) => hello.keyShares.some((share) => share.group === group);
  const sid = hello.sessionId;
  switch (mode) {
    case 'hello-retry':
      if (!offered(X25519MLKEM768)) return alertRecord(40);
      return Buffer.concat([
        handshakeRecord(helloRetryMessage(sid, X25519MLKEM768)),
        CHANGE_CIPHER_SPEC,
      ]);
    case 'server-hello-hybrid':
      return handshakeRecord(tls13ServerHelloMessage(sid, X25519MLKEM768, randomBytes(1120)));
    case 'prefer-key-share':
      if (shared(X25519))
        return handshakeRecord(tls13ServerHelloMessage(sid, X25519, randomBytes(32)));
      return handshakeRecord(helloRetryMessage(sid, X25519MLKEM768));
    case 'classical':
      if (shared(X25519))
        return handshakeRecord(tls13ServerHelloMessage(sid, X25519, randomBytes(32)));
      return handshakeRecord(helloRetryMessage(sid, X25519));
    case 'tls12':
      return handshakeRecord(tls12ServerHelloMessages(sid));
    case 'alert':
      return alertRecord(40);
    case 'garbage':
      return Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    case 'oversized': {
      // A ServerHello announcing 1 MiB, its first 16 KiB record in full, then a second one.
      const start = Buffer.concat([Buffer.from([2, 0x10, 0, 0]), Buffer.alloc(0x4000 - 4)]);
      return Buffer.concat([record(22, start), record(22, Buffer.alloc(0x4000))]);
    }
    default:
      return mode;
  }
}

/** The HRR split across two handshake records, written one byte per write. */
async function trickle(socket: Socket, hello: ReceivedHello): Promise<void> {
  const message = helloRetryMessage(hello.sessionId, X25519MLKEM768);
  const bytes = Buffer.concat([
    record(22, message.subarray(0, 10)),
    record(22, message.subarray(10)),
  ]);
  socket.setNoDelay(true);
  for (const byte of bytes) {
    if (socket.destroyed) return;
    socket.write(Buffer.from([byte]));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function flood(socket: Socket): void {
  const burst = Buffer.concat(Array.from({ length: 512 }, () => CHANGE_CIPHER_SPEC));
  const writeMore = () => {
    while (!socket.destroyed && socket.write(burst)) {
      // keep writing until the socket pushes back
    }
  };
  socket.on('drain', writeMore);
  writeMore();
}

function act(socket: Socket, mode: ResponderMode, hello: ReceivedHello): void {
  const answer = answerFor(mode, hello);
  if (answer === 'hang') return;
  if (answer === 'close') socket.destroy();
  else if (answer === 'trickle') void trickle(socket, hello);
  else if (answer === 'flood') flood(socket);
  else socket.write(answer);
}

export async function startHybridResponder(
  mode: ResponderMode,
  options: ResponderOptions = {},
): Promise<HybridResponder> {
  const received: ReceivedHello[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let bytes = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const hello = parseClientHelloRecord(bytes);
      if (!hello) return;
      socket.off('data', onData);
      if (options.forwardClassicalTo && !hello.groups.includes(X25519MLKEM768)) {
        socket.pause();
        socket.unshift(bytes);
        options.forwardClassicalTo.emit('connection', socket);
        return;
      }
      received.push(hello);
      act(socket, mode, hello);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

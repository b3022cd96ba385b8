/**
 * The server's first answer to the probe's ClientHello (RFC 8446 section 4.1.3, section 4.1.4, section 6): a
 * ServerHello, a HelloRetryRequest (a ServerHello whose random is SHA-256 of
 * "HelloRetryRequest"), or an alert. Only the fields that say which version and which
 * key-exchange group the server chose are read; anything malformed is a parse problem.
 */

import { type ByteReader, MalformedBytes } from './bytes.js';
import { EXTENSION, TLS_VERSION } from './client-hello.js';
import {
  createFirstMessageReader,
  DEFAULT_MAX_ANSWER_BYTES,
  decodeBody,
  HANDSHAKE_TYPE,
} from './records.js';

/** SHA-256("HelloRetryRequest"), the random of every HelloRetryRequest (RFC 8446 section 4.1.3). */
export const HELLO_RETRY_REQUEST_RANDOM = Buffer.from(
  'CF21AD74E59A6111BE1D8C021E65B891C2A211167ABB8C5E079E09E2C8A8339C',
  'hex',
);

export interface ServerHelloFacts {
  legacyVersion: number;
  /** supported_versions' selected_version; the legacy version when it is absent (TLS <= 1.2). */
  version: number;
  cipherSuite: number;
  /** HelloRetryRequest: the selected_group; ServerHello: its key share's group; else null. */
  keyShareGroup: number | null;
  /** ServerHello: the length of the server's share (1120 for X25519MLKEM768); else null. */
  keyShareLength: number | null;
  extensionTypes: number[];
}

export type AlertLevel = 'warning' | 'fatal' | 'unknown';

export type ServerAnswer =
  | { kind: 'hello-retry-request'; hello: ServerHelloFacts }
  | { kind: 'server-hello'; hello: ServerHelloFacts }
  | { kind: 'alert'; level: AlertLevel; description: number; name: string }
  | { kind: 'malformed'; problem: string };

const ALERT_NAMES: Readonly<Record<number, string>> = {
  0: 'close_notify',
  10: 'unexpected_message',
  20: 'bad_record_mac',
  22: 'record_overflow',
  40: 'handshake_failure',
  42: 'bad_certificate',
  47: 'illegal_parameter',
  48: 'unknown_ca',
  49: 'access_denied',
  50: 'decode_error',
  51: 'decrypt_error',
  70: 'protocol_version',
  71: 'insufficient_security',
  80: 'internal_error',
  86: 'inappropriate_fallback',
  90: 'user_canceled',
  109: 'missing_extension',
  110: 'unsupported_extension',
  112: 'unrecognized_name',
  116: 'certificate_required',
  120: 'no_application_protocol',
};

export function alertName(description: number): string {
  return ALERT_NAMES[description] ?? `alert ${description}`;
}

export interface ServerAnswerReader {
  /** Feed bytes as they arrive: the answer once it is complete (or hopeless), else null. */
  push(chunk: Uint8Array): ServerAnswer | null;
}

export function createServerAnswerReader(maxBytes = DEFAULT_MAX_ANSWER_BYTES): ServerAnswerReader {
  const records = createFirstMessageReader(maxBytes);
  let answer: ServerAnswer | null = null;
  return {
    push(chunk) {
      if (answer) return answer;
      const message = records.push(chunk);
      if (!message) return null;
      switch (message.kind) {
        case 'malformed':
          answer = message;
          break;
        case 'alert':
          answer = {
            ...message,
            level: alertLevel(message.level),
            name: alertName(message.description),
          };
          break;
        default:
          answer =
            message.type === HANDSHAKE_TYPE.serverHello
              ? serverHelloAnswer(message.body)
              : {
                  kind: 'malformed',
                  problem: `handshake message type ${message.type} instead of a ServerHello`,
                };
      }
      return answer;
    },
  };
}

/** Decode a whole answer at once (tests, fixtures); `incomplete` when more bytes were needed. */
export function decodeServerAnswer(
  bytes: Uint8Array,
  maxBytes = DEFAULT_MAX_ANSWER_BYTES,
): ServerAnswer | { kind: 'incomplete' } {
  return createServerAnswerReader(maxBytes).push(bytes) ?? { kind: 'incomplete' };
}

function alertLevel(level: number): AlertLevel {
  if (level === 1) return 'warning';
  return level === 2 ? 'fatal' : 'unknown';
}

function serverHelloAnswer(body: Uint8Array): ServerAnswer {
  let retry = false;
  const decoded = decodeBody(body, (reader) => {
    const legacyVersion = reader.u16('legacy_version');
    retry = Buffer.from(reader.take(32, 'random')).equals(HELLO_RETRY_REQUEST_RANDOM);
    if (reader.vector(1, 'legacy_session_id_echo').remaining > 32) {
      throw new MalformedBytes('a session id longer than 32 bytes');
    }
    const hello: ServerHelloFacts = {
      legacyVersion,
      version: legacyVersion,
      cipherSuite: reader.u16('cipher_suite'),
      keyShareGroup: null,
      keyShareLength: null,
      extensionTypes: [],
    };
    reader.u8('legacy_compression_method');
    // A TLS 1.2 ServerHello may end here: extensions are optional before TLS 1.3.
    if (reader.remaining > 0) readServerExtensions(reader.vector(2, 'extensions'), hello, retry);
    return hello;
  });
  if (!decoded.ok) return { kind: 'malformed', problem: `ServerHello: ${decoded.problem}` };
  return { kind: retry ? 'hello-retry-request' : 'server-hello', hello: decoded.value };
}

function readServerExtensions(extensions: ByteReader, hello: ServerHelloFacts, retry: boolean) {
  while (extensions.remaining > 0) {
    const type = extensions.u16('extension type');
    if (hello.extensionTypes.includes(type)) throw new MalformedBytes('a repeated extension');
    hello.extensionTypes.push(type);
    const body = extensions.vector(2, 'extension');
    if (type === EXTENSION.supportedVersions) {
      hello.version = body.u16('selected_version');
    } else if (type === EXTENSION.keyShare && retry) {
      hello.keyShareGroup = body.u16('selected_group');
    } else if (type === EXTENSION.keyShare) {
      hello.keyShareGroup = body.u16('key share group');
      hello.keyShareLength = body.vector(2, 'key_exchange').remaining;
    } else {
      continue;
    }
    if (body.remaining > 0) throw new MalformedBytes('bytes left over in an extension');
  }
  if (hello.version === TLS_VERSION.tls13 && hello.legacyVersion !== TLS_VERSION.tls12) {
    throw new MalformedBytes('a TLS 1.3 ServerHello must carry legacy_version 0x0303');
  }
}

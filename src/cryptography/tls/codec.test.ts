import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  alertRecord,
  handshakeRecord,
  helloRetryMessage,
  parseClientHelloRecord,
  tls12ServerHelloMessages,
  tls13ServerHelloMessage,
} from '../../../test/support/hybrid-tls-responder';
import {
  decodeClientHello,
  encodeClientHello,
  PROBE_GROUPS,
  sniHostName,
  x25519KeyShare,
} from './client-hello.js';
import { createFirstMessageReader } from './records.js';
import {
  createServerAnswerReader,
  decodeServerAnswer,
  HELLO_RETRY_REQUEST_RANDOM,
  type ServerAnswer,
} from './server-hello.js';

const SESSION = Buffer.alloc(32, 7);

function hex(text: string): Buffer {
  return Buffer.from(text, 'hex');
}

/** A ServerHello handshake record around a hand-written body (the header's length computed). */
function serverHello(...parts: string[]): Buffer {
  const body = hex(parts.join(''));
  return handshakeRecord(
    Buffer.concat([hex('02'), hex(body.length.toString(16).padStart(6, '0')), body]),
  );
}

describe('encodeClientHello', () => {
  it('lays out the record, handshake header and fixed fields as RFC 8446 section 4.1.2 says', () => {
    const random = Buffer.alloc(32, 0xab);
    const bytes = encodeClientHello({ keyShares: [], random, sessionId: SESSION });
    expect([...bytes.subarray(0, 3)]).toEqual([0x16, 0x03, 0x01]); // handshake record, 0x0301
    expect(bytes.readUInt16BE(3)).toBe(bytes.length - 5);
    expect(bytes[5]).toBe(1); // client_hello
    expect(bytes.readUIntBE(6, 3)).toBe(bytes.length - 9);
    expect(bytes.readUInt16BE(9)).toBe(0x0303); // legacy_version
    expect(bytes.subarray(11, 43).equals(random)).toBe(true);
    expect(bytes[43]).toBe(32);
    expect(bytes.length).toBeLessThan(2 ** 14);
  });

  const scenarios = [
    {
      name: 'x25519 share and SNI',
      options: { serverName: 'pq.example.test', keyShares: [x25519KeyShare()] },
      serverName: 'pq.example.test',
      keyShares: [{ group: 0x001d, length: 32 }],
    },
    {
      name: 'no key share, trailing-dot name',
      options: { serverName: 'Example.TEST.', keyShares: [] },
      serverName: 'example.test',
      keyShares: [],
    },
    {
      name: 'IPv4 literal never goes into SNI',
      options: { serverName: '192.0.2.1', keyShares: [] },
      serverName: null,
      keyShares: [],
    },
    {
      name: 'IPv6 literal never goes into SNI',
      options: { serverName: '2001:db8::1', keyShares: [] },
      serverName: null,
      keyShares: [],
    },
    {
      name: 'a name with spaces is left out',
      options: { serverName: 'bad name', keyShares: [] },
      serverName: null,
      keyShares: [],
    },
  ];
  it.each(scenarios)('round trip: $name', ({ options, serverName, keyShares }) => {
    const decoded = decodeClientHello(encodeClientHello(options));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const { hello } = decoded;
    expect(hello.serverName).toBe(serverName);
    expect(hello.keyShares).toEqual(keyShares);
    expect(hello.groups).toEqual(PROBE_GROUPS);
    expect(hello.groups.slice(0, 3)).toEqual([0x11ec, 0x11eb, 0x11ed]);
    expect(hello.supportedVersions).toEqual([0x0304, 0x0303]);
    expect(hello.cipherSuites.slice(0, 3)).toEqual([0x1301, 0x1302, 0x1303]);
    expect(hello.signatureSchemes).toContain(0x0804);
    expect(hello.extensionTypes).toContain(45); // psk_key_exchange_modes
  });

  it('is read the same by the independent test responder', () => {
    const share = x25519KeyShare();
    const bytes = encodeClientHello({
      serverName: 'a.test',
      keyShares: [share],
      sessionId: SESSION,
    });
    const seen = parseClientHelloRecord(bytes);
    expect(seen).toMatchObject({
      serverName: 'a.test',
      groups: [...PROBE_GROUPS],
      keyShares: [{ group: 0x001d, length: 32 }],
      supportedVersions: [0x0304, 0x0303],
      sessionId: SESSION,
    });
  });

  it('sends a real X25519 public key, a fresh one each time', () => {
    const a = x25519KeyShare();
    const b = x25519KeyShare();
    expect(a.keyExchange).toHaveLength(32);
    expect(Buffer.from(a.keyExchange).equals(Buffer.from(b.keyExchange))).toBe(false);
  });

  it('accepts only DNS names for SNI', () => {
    expect(['a.test', 'xn--bcher-kva.example', '_svc.a.test'].map(sniHostName)).toEqual([
      'a.test',
      'xn--bcher-kva.example',
      '_svc.a.test',
    ]);
    expect(
      ['', '.', 'a..b', '-a.test', `${'a'.repeat(64)}.test`, '10.0.0.1', 'ä.test'].map(sniHostName),
    ).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('decodeServerAnswer', () => {
  it('knows the HelloRetryRequest random', () => {
    expect(
      HELLO_RETRY_REQUEST_RANDOM.equals(createHash('sha256').update('HelloRetryRequest').digest()),
    ).toBe(true);
  });

  // A HelloRetryRequest written out by hand from RFC 8446 section 4.1.3/section 4.1.4: TLS_AES_256_GCM_SHA384,
  // supported_versions 0x0304, key_share selected_group secp256r1, empty session id.
  const handWrittenHrr = [
    ['16', '0303', '0038'], // record: handshake, TLS 1.2, 56 bytes
    ['02', '000034'], // server_hello, 52 bytes
    ['0303', HELLO_RETRY_REQUEST_RANDOM.toString('hex'), '00', '1302', '00'],
    ['000c', '002b00020304', '003300020017'], // supported_versions 1.3, key_share secp256r1
  ]
    .flat()
    .join('');

  const scenarios: {
    name: string;
    bytes: Buffer;
    expected: Partial<ServerAnswer> & Record<string, unknown>;
  }[] = [
    {
      name: 'hand-written HRR selecting secp256r1',
      bytes: Buffer.from(handWrittenHrr, 'hex'),
      expected: {
        kind: 'hello-retry-request',
        hello: {
          legacyVersion: 0x0303,
          version: 0x0304,
          cipherSuite: 0x1302,
          keyShareGroup: 0x0017,
          keyShareLength: null,
          extensionTypes: [43, 51],
        },
      },
    },
    {
      name: 'HRR selecting X25519MLKEM768',
      bytes: handshakeRecord(helloRetryMessage(SESSION, 0x11ec)),
      expected: {
        kind: 'hello-retry-request',
        hello: expect.objectContaining({ version: 0x0304, keyShareGroup: 0x11ec }),
      },
    },
    {
      name: 'ServerHello with a 1120-byte X25519MLKEM768 share',
      bytes: handshakeRecord(tls13ServerHelloMessage(SESSION, 0x11ec, randomBytes(1120))),
      expected: {
        kind: 'server-hello',
        hello: expect.objectContaining({
          version: 0x0304,
          keyShareGroup: 0x11ec,
          keyShareLength: 1120,
        }),
      },
    },
    {
      name: 'classical ServerHello on x25519',
      bytes: handshakeRecord(tls13ServerHelloMessage(SESSION, 0x001d, randomBytes(32))),
      expected: {
        kind: 'server-hello',
        hello: expect.objectContaining({ keyShareGroup: 0x001d, keyShareLength: 32 }),
      },
    },
    {
      name: 'TLS 1.2 ServerHello without supported_versions',
      bytes: handshakeRecord(tls12ServerHelloMessages(SESSION)),
      expected: {
        kind: 'server-hello',
        hello: expect.objectContaining({
          version: 0x0303,
          keyShareGroup: null,
          cipherSuite: 0xc02f,
        }),
      },
    },
    {
      name: 'TLS 1.2 ServerHello without any extensions',
      bytes: serverHello(`0303${'11'.repeat(32)}00c02f00`),
      expected: {
        kind: 'server-hello',
        hello: expect.objectContaining({ version: 0x0303, extensionTypes: [] }),
      },
    },
    {
      name: 'fatal handshake_failure alert',
      bytes: alertRecord(40),
      expected: { kind: 'alert', level: 'fatal', description: 40, name: 'handshake_failure' },
    },
    {
      name: 'warning alert with an unknown description',
      bytes: alertRecord(201, 1),
      expected: { kind: 'alert', level: 'warning', name: 'alert 201' },
    },
    {
      name: 'ChangeCipherSpec before the HRR is skipped',
      bytes: Buffer.concat([
        Buffer.from('1403030001' + '01', 'hex'),
        handshakeRecord(helloRetryMessage(SESSION, 0x11ed)),
      ]),
      expected: {
        kind: 'hello-retry-request',
        hello: expect.objectContaining({ keyShareGroup: 0x11ed }),
      },
    },
  ];
  it.each(scenarios)('$name', ({ bytes, expected }) => {
    expect(decodeServerAnswer(bytes)).toMatchObject(expected);
  });

  it('reads the same answer however the bytes are split', () => {
    const bytes = Buffer.concat([
      handshakeRecord(helloRetryMessage(SESSION, 0x11ec).subarray(0, 7)),
      handshakeRecord(helloRetryMessage(SESSION, 0x11ec).subarray(7)),
    ]);
    const whole = decodeServerAnswer(bytes);
    expect(whole).toMatchObject({ kind: 'hello-retry-request', hello: { keyShareGroup: 0x11ec } });
    for (let cut = 1; cut < bytes.length; cut += 1) {
      const reader = createServerAnswerReader();
      expect(reader.push(bytes.subarray(0, cut))).toBeNull();
      expect(reader.push(bytes.subarray(cut))).toEqual(whole);
    }
  });
});

describe('hostile answers', () => {
  const hrr = handshakeRecord(helloRetryMessage(SESSION, 0x11ec));
  const hrrRandom = HELLO_RETRY_REQUEST_RANDOM.toString('hex');
  const scenarios: { name: string; bytes: Buffer; problem: RegExp | 'incomplete' }[] = [
    { name: 'nothing yet', bytes: Buffer.alloc(0), problem: 'incomplete' },
    { name: 'half a record header', bytes: hex('1603'), problem: 'incomplete' },
    { name: 'a ServerHello still arriving', bytes: hrr.subarray(0, 40), problem: 'incomplete' },
    {
      name: 'HTTP text',
      bytes: Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'),
      problem: /not a TLS record/,
    },
    {
      name: 'SSH banner',
      bytes: Buffer.from('SSH-2.0-OpenSSH_9.6\r\n'),
      problem: /not a TLS record/,
    },
    { name: 'record major version 2', bytes: hex('1602000001ff'), problem: /not a TLS record/ },
    { name: 'empty record', bytes: hex('1603030000'), problem: /empty TLS record/ },
    {
      name: 'record over 2^14+256',
      bytes: hex('1603034101'),
      problem: /longer than the protocol allows/,
    },
    { name: 'one-byte alert', bytes: hex('150303000102'), problem: /truncated alert/ },
    { name: 'application data first', bytes: hex('170303000100'), problem: /encrypted records/ },
    {
      name: 'a Certificate message first',
      bytes: hex('16030300040b000000'),
      problem: /type 11 instead of a ServerHello/,
    },
    {
      name: 'a 16 MiB handshake message',
      bytes: hex('160303000402ffffff'),
      problem: /handshake message of 16777215 bytes/,
    },
    {
      name: 'an empty ServerHello',
      bytes: serverHello(''),
      problem: /legacy_version runs past the end/,
    },
    {
      name: 'ServerHello ending after the random',
      bytes: serverHello(`0303${'00'.repeat(32)}`),
      problem: /legacy_session_id_echo length runs past/,
    },
    {
      name: 'session id of 33 bytes',
      bytes: serverHello(`0303${'00'.repeat(32)}21${'00'.repeat(33)}130100`),
      problem: /session id longer/,
    },
    {
      name: 'extensions length past the end',
      bytes: serverHello(`0303${'00'.repeat(32)}00130100`, '00ff'),
      problem: /extensions runs past the end/,
    },
    {
      name: 'repeated key_share',
      bytes: serverHello(`0303${hrrRandom}00130100`, '000c', '00330002001d', '00330002001d'),
      problem: /repeated extension/,
    },
    {
      name: 'HRR key_share of 3 bytes',
      bytes: serverHello(`0303${hrrRandom}00130100`, '0007', '00330003001d00'),
      problem: /left over in an extension/,
    },
    {
      name: 'ServerHello key share longer than its extension',
      bytes: serverHello(`0303${'00'.repeat(32)}00130100`, '0008', '00330004001d0020'),
      problem: /key_exchange runs past the end/,
    },
    {
      name: 'bytes after the extensions',
      bytes: serverHello(`0303${hrrRandom}00130100`, '0000', '00'),
      problem: /left over after the message/,
    },
    {
      name: 'TLS 1.3 with legacy_version 0x0304',
      bytes: serverHello(`0304${hrrRandom}00130100`, '0006', '002b00020304'),
      problem: /legacy_version 0x0303/,
    },
  ];
  it.each(scenarios)('$name', ({ bytes, problem }) => {
    const answer = decodeServerAnswer(bytes);
    if (problem === 'incomplete') {
      expect(answer).toEqual({ kind: 'incomplete' });
      return;
    }
    expect(answer.kind).toBe('malformed');
    if (answer.kind === 'malformed') expect(answer.problem).toMatch(problem);
  });

  it('gives up at the byte cap on an endless stream of ChangeCipherSpec records', () => {
    const reader = createServerAnswerReader(1024);
    const ccs = Buffer.from('140303000101', 'hex');
    let answer: ServerAnswer | null = null;
    for (let sent = 0; answer === null && sent < 10_000; sent += 1) answer = reader.push(ccs);
    expect(answer).toEqual({
      kind: 'malformed',
      problem: 'no complete answer in the first 1024 bytes',
    });
  });

  it('stays linear when a 32 KiB answer arrives one byte at a time', () => {
    // One record announcing 16 KiB, then another: trickled, this must not copy quadratically.
    const record = Buffer.concat([
      Buffer.from('1603034000', 'hex'),
      Buffer.from('02003ffc', 'hex'),
      Buffer.alloc(0x3ffc),
    ]);
    const reader = createFirstMessageReader();
    const started = performance.now();
    let message = null;
    for (let at = 0; at < record.length && !message; at += 1)
      message = reader.push(record.subarray(at, at + 1));
    expect(message).toMatchObject({ kind: 'handshake', type: 2 });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('never throws on random bytes or on mutations of a valid answer', () => {
    const valid = handshakeRecord(tls13ServerHelloMessage(SESSION, 0x11ec, randomBytes(40)));
    for (let round = 0; round < 3000; round += 1) {
      const bytes = round % 2 === 0 ? randomBytes(round % 200) : Buffer.from(valid);
      if (round % 2 === 1) {
        for (let flips = 0; flips < 3; flips += 1) {
          const at = (round * 7 + flips * 13) % bytes.length;
          bytes[at] = bytes[at]! ^ (1 << (round % 8));
        }
      }
      const answer = decodeServerAnswer(bytes);
      expect(['incomplete', 'malformed', 'alert', 'server-hello', 'hello-retry-request']).toContain(
        answer.kind,
      );
    }
  });

  it('refuses a ClientHello that is not one, without throwing', () => {
    expect(decodeClientHello(Buffer.from('HTTP/1.1'))).toEqual({
      ok: false,
      problem: 'the answer is not a TLS record',
    });
    expect(decodeClientHello(hrr)).toEqual({ ok: false, problem: 'not a ClientHello' });
    const hello = encodeClientHello({ keyShares: [] });
    expect(decodeClientHello(hello.subarray(0, 40))).toEqual({
      ok: false,
      problem: 'the ClientHello is incomplete',
    });
    const corrupt = Buffer.from(hello);
    corrupt[43] = 200; // session id length past the end of the message
    expect(decodeClientHello(corrupt)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/past the end/),
    });
  });
});

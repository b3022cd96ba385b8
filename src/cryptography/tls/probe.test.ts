import { createServer as createNetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HybridResponder,
  type ResponderMode,
  startHybridResponder,
} from '../../../test/support/hybrid-tls-responder';
import {
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../test/support/tls-certificate';
import type { NamedGroup } from './groups.js';
import { type HybridProbeResult, probeHybridGroups } from './probe.js';

const X25519MLKEM768: NamedGroup = { name: 'X25519MLKEM768', codepoint: 0x11ec, kind: 'hybrid' };
const X25519: NamedGroup = { name: 'x25519', codepoint: 0x001d, kind: 'classical' };

async function withResponder<T>(
  mode: ResponderMode,
  run: (responder: HybridResponder) => Promise<T>,
): Promise<T> {
  const responder = await startHybridResponder(mode);
  try {
    return await run(responder);
  } finally {
    await responder.close();
  }
}

function probe(port: number, extra: Partial<Parameters<typeof probeHybridGroups>[0]> = {}) {
  return probeHybridGroups({ address: '127.0.0.1', port, timeoutMs: 2000, ...extra });
}

describe('probeHybridGroups against the raw responder', () => {
  const scenarios: [ResponderMode, Partial<HybridProbeResult>][] = [
    [
      'hello-retry',
      {
        reachable: true,
        tls13: true,
        helloRetry: true,
        answer: 'hello-retry-request',
        selectedGroup: X25519MLKEM768,
        keyShareOffered: 'x25519',
        attempts: 1,
        cipherSuite: { code: 0x1301, name: 'TLS_AES_128_GCM_SHA256' },
      },
    ],
    [
      'server-hello-hybrid',
      {
        tls13: true,
        helloRetry: false,
        answer: 'server-hello',
        selectedGroup: X25519MLKEM768,
        attempts: 1,
      },
    ],
    [
      'prefer-key-share',
      {
        tls13: true,
        helloRetry: true,
        selectedGroup: X25519MLKEM768,
        keyShareOffered: 'none',
        attempts: 2,
      },
    ],
    [
      'classical',
      {
        tls13: true,
        helloRetry: true,
        selectedGroup: X25519,
        keyShareOffered: 'none',
        attempts: 2,
      },
    ],
    [
      'tls12',
      {
        reachable: true,
        tls13: false,
        answer: 'server-hello',
        selectedGroup: null,
        attempts: 1,
        cipherSuite: { code: 0xc02f, name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' },
      },
    ],
    [
      'alert',
      {
        reachable: true,
        tls13: false,
        answer: 'alert',
        alert: { level: 'fatal', description: 40, name: 'handshake_failure' },
        problem: 'the server answered with the alert handshake_failure',
      },
    ],
    [
      'garbage',
      {
        reachable: true,
        answer: 'none',
        problem: 'the answer could not be read: the answer is not a TLS record',
      },
    ],
    ['trickle', { tls13: true, helloRetry: true, selectedGroup: X25519MLKEM768 }],
    [
      'oversized',
      {
        answer: 'none',
        problem: 'the answer could not be read: a handshake message of 1048576 bytes (limit 32768)',
      },
    ],
    [
      'flood',
      {
        answer: 'none',
        problem: 'the answer could not be read: no complete answer in the first 32768 bytes',
      },
    ],
    ['close', { reachable: true, answer: 'none', selectedGroup: null }],
  ];
  it.each(scenarios)('%s', async (mode, expected) => {
    const result = await withResponder(mode, (responder) => probe(responder.port));
    expect(result).toMatchObject(expected);
  });

  it('offers the hybrids first with one X25519 share, and SNI only for a name', async () => {
    await withResponder('hello-retry', async (responder) => {
      await probe(responder.port, { servername: 'pq.example.test' });
      await probe(responder.port, { servername: '127.0.0.1' });
      const [named, literal] = responder.received;
      expect(named?.serverName).toBe('pq.example.test');
      expect(named?.groups.slice(0, 4)).toEqual([0x11ec, 0x11eb, 0x11ed, 0x11ee]);
      expect(named?.groups).toEqual(expect.arrayContaining([0x001d, 0x0017, 0x0018]));
      expect(named?.keyShares).toEqual([{ group: 0x001d, length: 32 }]);
      expect(named?.supportedVersions).toEqual([0x0304, 0x0303]);
      expect(named?.cipherSuites.slice(0, 3)).toEqual([0x1301, 0x1302, 0x1303]);
      expect(literal?.serverName).toBeNull();
    });
  });

  it('asks a second time without a key share only after a classical ServerHello', async () => {
    await withResponder('prefer-key-share', async (responder) => {
      const once = await probe(responder.port, { retryWithoutKeyShare: false });
      expect(once).toMatchObject({ selectedGroup: X25519, helloRetry: false, attempts: 1 });
      expect(responder.received.map((hello) => hello.keyShares.length)).toEqual([1]);
      await probe(responder.port);
      expect(responder.received.map((hello) => hello.keyShares.length)).toEqual([1, 1, 0]);
    });
  });

  it('gives up on a server that never answers, at the timeout', async () => {
    await withResponder('hang', async (responder) => {
      const started = performance.now();
      const result = await probe(responder.port, { timeoutMs: 300 });
      expect(result).toMatchObject({
        reachable: true,
        answer: 'none',
        problem: 'no answer within 300 ms',
      });
      expect(performance.now() - started).toBeLessThan(1500);
    });
  });

  it('reports an address where nothing listens as unreachable', async () => {
    const server = createNetServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await probe(port);
    expect(result).toMatchObject({
      reachable: false,
      answer: 'none',
      errorCode: 'ECONNREFUSED',
      problem: 'the address could not be reached',
    });
  });

  it('uses the connect function it is given, and survives one that throws', async () => {
    await withResponder('hello-retry', async (responder) => {
      const opened: string[] = [];
      const { connect } = await import('node:net');
      const result = await probe(responder.port, {
        address: '192.0.2.1', // never dialled: the function decides where to go
        connect: (address, port): Socket => {
          opened.push(`${address}:${port}`);
          return connect({ host: '127.0.0.1', port: responder.port });
        },
      });
      expect(opened).toEqual([`192.0.2.1:${responder.port}`]);
      expect(result.selectedGroup).toEqual(X25519MLKEM768);
    });
    const refused = await probe(1, {
      connect: () => {
        throw new Error('refused by the guard');
      },
    });
    expect(refused).toMatchObject({ reachable: false, problem: 'no connection could be opened' });
  });
});

describe('probeHybridGroups against real OpenSSL 3.0 servers (node:tls)', () => {
  let certificate: SelfSignedCertificate;
  beforeAll(() => {
    certificate = selfSignedCertificate('probe.test', ['DNS:probe.test']);
  });
  afterAll(() => certificate.remove());

  async function againstServer(options: TlsOptions): Promise<HybridProbeResult> {
    const server = createTlsServer({ key: certificate.key, cert: certificate.cert, ...options });
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      return await probe(port, { servername: 'probe.test' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it('TLS 1.3 on x25519: a ServerHello, then an HRR to x25519 when asked without a share', async () => {
    expect(await againstServer({ minVersion: 'TLSv1.3' })).toMatchObject({
      reachable: true,
      tls13: true,
      helloRetry: true,
      selectedGroup: X25519,
      keyShareOffered: 'none',
      attempts: 2,
    });
  });

  it('TLS 1.3 on P-256 only: a HelloRetryRequest to secp256r1 at once', async () => {
    expect(await againstServer({ minVersion: 'TLSv1.3', ecdhCurve: 'prime256v1' })).toMatchObject({
      tls13: true,
      helloRetry: true,
      selectedGroup: { name: 'secp256r1', codepoint: 0x0017, kind: 'classical' },
      keyShareOffered: 'x25519',
      attempts: 1,
    });
  });

  it('TLS 1.2 only: a ServerHello without supported_versions', async () => {
    expect(await againstServer({ maxVersion: 'TLSv1.2' })).toMatchObject({
      tls13: false,
      helloRetry: false,
      answer: 'server-hello',
      selectedGroup: null,
      attempts: 1,
    });
  });
});

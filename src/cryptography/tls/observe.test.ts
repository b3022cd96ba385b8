import { X509Certificate } from 'node:crypto';
import { createServer as createNetServer, type Server } from 'node:net';
import {
  createServer as createTlsServer,
  type DetailedPeerCertificate,
  type TlsOptions,
  type Server as TlsServer,
} from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHybridResponder } from '../../../test/support/hybrid-tls-responder';
import {
  type CertificateChain,
  certificateChain as makeCertificateChain,
  type SelfSignedCertificate,
  selfSignedCertificate,
} from '../../../test/support/tls-certificate';
import type { NamedGroup } from './groups.js';
import {
  certificateChain,
  type KeyExchangeFacts,
  keyExchangeFacts,
  MAX_CHAIN_LENGTH,
  observeEndpoint,
  observeTls,
  type TlsObservation,
} from './observe.js';
import type { ChainAuthentication } from './verdict.js';

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function listening<T extends Server>(server: T): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

let selfSigned: SelfSignedCertificate;
let ecSelfSigned: SelfSignedCertificate;
let chain: CertificateChain;
beforeAll(() => {
  selfSigned = selfSignedCertificate('observe.test', ['DNS:observe.test']);
  ecSelfSigned = selfSignedCertificate('ec.observe.test', ['DNS:ec.observe.test'], undefined, {
    keyType: 'ec',
  });
  chain = makeCertificateChain('leaf.observe.test', ['DNS:leaf.observe.test']);
});
afterAll(() => {
  selfSigned.remove();
  ecSelfSigned.remove();
  chain.remove();
});

function tlsServer(options: TlsOptions): TlsServer {
  const server = createTlsServer(
    { key: selfSigned.key, cert: selfSigned.cert, ...options },
    (socket) => socket.end(),
  );
  server.on('tlsClientError', () => {});
  return server;
}

async function observeServer(
  options: TlsOptions,
  extra: { servername?: string; ca?: Buffer } = {},
): Promise<TlsObservation> {
  const server = await listening(tlsServer(options));
  try {
    return await observeTls({
      address: '127.0.0.1',
      port: portOf(server),
      timeoutMs: 3000,
      ...extra,
    });
  } finally {
    await closed(server);
  }
}

const x25519: NamedGroup = { name: 'x25519', codepoint: 0x001d, kind: 'classical' };

describe('observeTls against node:tls servers', () => {
  const scenarios: [string, TlsOptions, Partial<TlsObservation>, Partial<KeyExchangeFacts>][] = [
    [
      'TLS 1.2 only (ECDHE)',
      { maxVersion: 'TLSv1.2' },
      {
        protocol: 'TLSv1.2',
        cipher: {
          name: 'ECDHE-RSA-AES128-GCM-SHA256',
          standardName: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
        },
      },
      { method: 'ecdhe', group: x25519, sizeBits: 253, reportedName: 'X25519' },
    ],
    [
      'TLS 1.3 with X25519',
      { minVersion: 'TLSv1.3' },
      {
        protocol: 'TLSv1.3',
        cipher: { name: 'TLS_AES_256_GCM_SHA384', standardName: 'TLS_AES_256_GCM_SHA384' },
      },
      { method: 'ecdhe', group: x25519, sizeBits: 253 },
    ],
    [
      'TLS 1.3 with ecdhCurve prime256v1',
      { minVersion: 'TLSv1.3', ecdhCurve: 'prime256v1' },
      { protocol: 'TLSv1.3' },
      {
        method: 'ecdhe',
        group: { name: 'secp256r1', codepoint: 0x0017, kind: 'classical' },
        sizeBits: 256,
        reportedName: 'prime256v1',
      },
    ],
    [
      'TLS 1.3 with ffdhe2048 (a named group)',
      { minVersion: 'TLSv1.3', ecdhCurve: 'ffdhe2048' },
      { protocol: 'TLSv1.3' },
      {
        method: 'ffdhe',
        group: { name: 'ffdhe2048', codepoint: 0x0100, kind: 'classical' },
        sizeBits: 2048,
      },
    ],
    [
      'TLS 1.2 with DHE (dhparam auto)',
      { maxVersion: 'TLSv1.2', dhparam: 'auto', ciphers: 'DHE-RSA-AES128-GCM-SHA256' },
      {
        protocol: 'TLSv1.2',
        cipher: {
          name: 'DHE-RSA-AES128-GCM-SHA256',
          standardName: 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256',
        },
      },
      { method: 'ffdhe', group: null, sizeBits: 2048 },
    ],
    [
      'TLS 1.2 with RSA key transport',
      { maxVersion: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256' },
      {
        protocol: 'TLSv1.2',
        cipher: { name: 'AES128-GCM-SHA256', standardName: 'TLS_RSA_WITH_AES_128_GCM_SHA256' },
      },
      { method: 'rsa-key-transport', group: null, sizeBits: null },
    ],
    [
      'TLS 1.0 (an inventory must see it)',
      { minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0' },
      { protocol: 'TLSv1' },
      { method: 'ecdhe', group: x25519 },
    ],
  ];
  it.each(scenarios)('%s', async (_name, options, expected, keyExchange) => {
    const observation = await observeServer(options);
    expect(observation).toMatchObject({
      reachable: true,
      handshake: true,
      authorized: false,
      authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      chainTruncated: false,
      ...expected,
    });
    expect(observation.keyExchange).toMatchObject(keyExchange);
    expect(observation.certificateChain).toHaveLength(1);
    expect(new X509Certificate(observation.certificateChain[0]!).subject).toBe('CN=observe.test');
  });

  it('returns the chain leaf first, each certificate once, and trusts a given root', async () => {
    const options = { key: chain.key, cert: chain.chain };
    const trusted = await observeServer(options, {
      servername: 'leaf.observe.test',
      ca: chain.root,
    });
    expect(trusted).toMatchObject({ authorized: true, authorizationError: null });
    const subjects = trusted.certificateChain.map((der) => new X509Certificate(der).subject);
    expect(subjects).toEqual(['CN=leaf.observe.test', 'CN=Driftwatch Test Root']);
    const untrusted = await observeServer(options, { servername: 'leaf.observe.test' });
    expect(untrusted).toMatchObject({
      authorized: false,
      authorizationError: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(untrusted.certificateChain).toHaveLength(2);
  });

  it('reports a name the certificate does not cover', async () => {
    const options = { key: chain.key, cert: chain.chain };
    const observation = await observeServer(options, { servername: 'other.test', ca: chain.root });
    expect(observation).toMatchObject({ handshake: true, authorized: false });
    expect(observation.authorizationError).toMatch(/does not match|ERR_TLS_CERT_ALTNAME_INVALID/);
  });

  it('hands back an EC certificate as DER', async () => {
    const observation = await observeServer({
      key: ecSelfSigned.key,
      cert: ecSelfSigned.cert,
      minVersion: 'TLSv1.3',
    });
    const leaf = new X509Certificate(observation.certificateChain[0]!);
    expect(leaf.publicKey.asymmetricKeyType).toBe('ec');
  });

  it('reports a port that speaks no TLS, an address that refuses, and a silent server', async () => {
    // Both read what arrives (a socket nobody reads never sees the peer leave, and would
    // keep its server from closing).
    const plain = await listening(
      createNetServer((socket) => socket.resume().end('HTTP/1.1 400 Bad Request\r\n\r\n')),
    );
    const silent = await listening(createNetServer((socket) => socket.resume()));
    const refusing = await listening(createNetServer());
    const refusedPort = portOf(refusing);
    await closed(refusing);
    try {
      const observe = (port: number, timeoutMs = 3000) =>
        observeTls({ address: '127.0.0.1', port, timeoutMs });
      expect(await observe(portOf(plain))).toMatchObject({
        reachable: true,
        handshake: false,
        problem: 'the TLS handshake failed',
      });
      expect(await observe(refusedPort)).toMatchObject({
        reachable: false,
        errorCode: 'ECONNREFUSED',
      });
      const started = performance.now();
      expect(await observe(portOf(silent), 300)).toMatchObject({
        reachable: true,
        handshake: false,
        problem: 'no TLS handshake within 300 ms',
      });
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      await Promise.all([closed(plain), closed(silent)]);
    }
  });
});

describe('keyExchangeFacts', () => {
  const scenarios: [
    string,
    unknown,
    string | null,
    string | undefined,
    Partial<KeyExchangeFacts>,
  ][] = [
    [
      'X25519',
      { type: 'ECDH', name: 'X25519', size: 253 },
      'TLSv1.3',
      'TLS_AES_128_GCM_SHA256',
      { method: 'ecdhe', group: x25519 },
    ],
    [
      'secp384r1',
      { type: 'ECDH', name: 'secp384r1', size: 384 },
      'TLSv1.2',
      undefined,
      { method: 'ecdhe', group: { name: 'secp384r1', codepoint: 0x18, kind: 'classical' } },
    ],
    [
      'an unknown curve',
      { type: 'ECDH', name: 'brainpoolP160r1', size: 160 },
      'TLSv1.2',
      undefined,
      { method: 'ecdhe', group: null, reportedName: 'brainpoolP160r1' },
    ],
    [
      'DH in TLS 1.3 is a named group',
      { type: 'DH', size: 3072 },
      'TLSv1.3',
      undefined,
      { method: 'ffdhe', group: { name: 'ffdhe3072', codepoint: 0x0101, kind: 'classical' } },
    ],
    [
      'DH in TLS 1.2 may be any parameters',
      { type: 'DH', size: 1024 },
      'TLSv1.2',
      undefined,
      { method: 'ffdhe', group: null, sizeBits: 1024 },
    ],
    [
      'RSA key transport',
      {},
      'TLSv1.2',
      'TLS_RSA_WITH_AES_128_GCM_SHA256',
      { method: 'rsa-key-transport' },
    ],
    [
      '{} in TLS 1.3 (a hybrid group on newer Node)',
      {},
      'TLSv1.3',
      'TLS_AES_128_GCM_SHA256',
      { method: 'unknown', group: null },
    ],
    [
      'TLSGroup naming the hybrid (nodejs/node#64119)',
      { type: 'TLSGroup', name: 'X25519MLKEM768' },
      'TLSv1.3',
      undefined,
      { method: 'hybrid', group: { name: 'X25519MLKEM768', codepoint: 0x11ec, kind: 'hybrid' } },
    ],
    [
      'TLSGroup naming pure ML-KEM',
      { type: 'TLSGroup', name: 'MLKEM1024' },
      'TLSv1.3',
      undefined,
      { method: 'ml-kem' },
    ],
    [
      'null (a server socket)',
      null,
      null,
      undefined,
      { method: 'unknown', group: null, sizeBits: null },
    ],
    [
      'hostile field types',
      { type: 7, name: { toString: 'x' }, size: '2048' },
      'TLSv1.2',
      undefined,
      { method: 'unknown', reportedName: null, sizeBits: null },
    ],
  ];
  it.each(scenarios)('%s', (_name, info, protocol, cipher, expected) => {
    expect(keyExchangeFacts(info, protocol, cipher)).toMatchObject(expected);
  });
});

describe('certificateChain', () => {
  function certificate(id: number, issuer?: DetailedPeerCertificate): DetailedPeerCertificate {
    const node = {
      raw: Buffer.from([id]),
      fingerprint256: `fp${id}`,
    } as unknown as DetailedPeerCertificate;
    if (issuer) node.issuerCertificate = issuer;
    return node;
  }

  it('stops at a self-signed root that links to itself', () => {
    const root = certificate(1);
    root.issuerCertificate = root;
    const leaf = certificate(2, certificate(3, root));
    expect(certificateChain(leaf)).toEqual({
      chain: [Buffer.from([2]), Buffer.from([3]), Buffer.from([1])],
      truncated: false,
    });
  });

  it('stops at a loop between two certificates', () => {
    const a = certificate(1);
    const b = certificate(2, a);
    a.issuerCertificate = b;
    expect(certificateChain(a).chain).toHaveLength(2);
  });

  it(`keeps at most ${MAX_CHAIN_LENGTH} certificates`, () => {
    let current = certificate(0);
    for (let id = 1; id < 30; id += 1) current = certificate(id, current);
    expect(certificateChain(current)).toMatchObject({ truncated: true });
    expect(certificateChain(current).chain).toHaveLength(MAX_CHAIN_LENGTH);
  });

  it('is empty when the peer sent no certificate', () => {
    expect(certificateChain({} as DetailedPeerCertificate)).toEqual({
      chain: [],
      truncated: false,
    });
    expect(certificateChain(null)).toEqual({ chain: [], truncated: false });
  });
});

describe('observeEndpoint', () => {
  async function hybridFront(tlsOptions: TlsOptions) {
    const backend = tlsServer(tlsOptions);
    const responder = await startHybridResponder('hello-retry', { forwardClassicalTo: backend });
    return { port: responder.port, close: responder.close };
  }

  it('a classical TLS 1.3 server is vulnerable', async () => {
    const server = await listening(tlsServer({ minVersion: 'TLSv1.3' }));
    try {
      const observation = await observeEndpoint({
        address: '127.0.0.1',
        port: portOf(server),
        timeoutMs: 3000,
        classifyChain: () => 'classical',
      });
      expect(observation).toMatchObject({
        reachable: true,
        verdict: 'vulnerable',
        hybridKexClassicalAuth: false,
        supportedGroup: x25519,
        authentication: 'classical',
        problems: [],
      });
      expect(observation.tls.protocol).toBe('TLSv1.3');
      expect(observation.hybridProbe).toMatchObject({ attempts: 2, selectedGroup: x25519 });
    } finally {
      await closed(server);
    }
  });

  it('a TLS 1.2 server is vulnerable', async () => {
    const server = await listening(tlsServer({ maxVersion: 'TLSv1.2' }));
    try {
      const observation = await observeEndpoint({
        address: '127.0.0.1',
        port: portOf(server),
        timeoutMs: 3000,
      });
      expect(observation).toMatchObject({
        verdict: 'vulnerable',
        verdictReason: 'TLSv1.2 has only classical key exchange',
      });
      expect(observation.hybridProbe.tls13).toBe(false);
    } finally {
      await closed(server);
    }
  });

  it('a server that picks X25519MLKEM768 is hybrid, though Node negotiated x25519', async () => {
    const front = await hybridFront({ minVersion: 'TLSv1.3' });
    try {
      const seen: number[] = [];
      const observation = await observeEndpoint({
        address: '127.0.0.1',
        port: front.port,
        timeoutMs: 3000,
        classifyChain: (der) => {
          seen.push(der.length);
          return 'classical';
        },
      });
      expect(observation).toMatchObject({
        verdict: 'hybrid',
        hybridKexClassicalAuth: true,
        authentication: 'classical',
        supportedGroup: { name: 'X25519MLKEM768', codepoint: 0x11ec, kind: 'hybrid' },
        verdictReason: 'hybrid key exchange, classical authentication',
      });
      expect(observation.tls.keyExchange?.group).toEqual(x25519);
      expect(seen).toEqual([1]);
    } finally {
      await front.close();
    }
  });

  it('hybrid key exchange with a chain the caller calls post-quantum is quantum-safe', async () => {
    const front = await hybridFront({ minVersion: 'TLSv1.3' });
    try {
      const observation = await observeEndpoint({
        address: '127.0.0.1',
        port: front.port,
        timeoutMs: 3000,
        classifyChain: async (): Promise<ChainAuthentication> => 'post-quantum',
      });
      expect(observation).toMatchObject({ verdict: 'quantum-safe', hybridKexClassicalAuth: false });
    } finally {
      await front.close();
    }
  });

  it('a classifier that throws leaves authentication unknown and says so', async () => {
    const front = await hybridFront({ minVersion: 'TLSv1.3' });
    try {
      const observation = await observeEndpoint({
        address: '127.0.0.1',
        port: front.port,
        timeoutMs: 3000,
        classifyChain: () => {
          throw new Error('unreadable');
        },
      });
      expect(observation).toMatchObject({
        verdict: 'hybrid',
        authentication: 'unknown',
        problems: ['the certificate chain could not be classified'],
      });
    } finally {
      await front.close();
    }
  });

  it('nothing listening: no verdict', async () => {
    const server = await listening(createNetServer());
    const port = portOf(server);
    await closed(server);
    const observation = await observeEndpoint({ address: '127.0.0.1', port, timeoutMs: 1000 });
    expect(observation).toMatchObject({ reachable: false, verdict: null, supportedGroup: null });
    expect(observation.problems).toHaveLength(2);
  });
});

describe('observeTls with options it cannot use', () => {
  it('returns a problem instead of throwing on an invalid port', async () => {
    const observation = await observeTls({ address: '127.0.0.1', port: 70000, timeoutMs: 500 });
    expect(observation).toMatchObject({
      reachable: false,
      handshake: false,
      problem: 'no connection could be opened',
    });
  });
});

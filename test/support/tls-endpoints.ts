import { createServer as createNetServer, connect as netConnect, type Server } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';
import { expect } from 'vitest';
import { startHybridResponder } from './hybrid-tls-responder';
import type { TestApp, TestTenant } from './test-app';
import { type SelfSignedCertificate, selfSignedCertificate } from './tls-certificate';

/**
 * Local TLS servers for the TLS observation tests (docs/quantum.md#tls-observations): real
 * node:tls servers on 127.0.0.1, the raw hybrid responder in front of one, and a switchboard
 * whose port stays while the server behind it changes (an endpoint whose configuration moved).
 */
export interface LocalServer {
  port: number;
  close: () => Promise<void>;
}

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function listening(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: portOf(server),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function tlsServer(certificate: SelfSignedCertificate, options: TlsOptions) {
  const server = createTlsServer(
    { key: certificate.key, cert: certificate.cert, ...options },
    (socket) => socket.end(),
  );
  server.on('tlsClientError', () => {});
  return server;
}

/** A node:tls server with `options` (`maxVersion: 'TLSv1.2'`, `minVersion: 'TLSv1.3'`, …). */
export function startTlsServer(
  certificate: SelfSignedCertificate,
  options: TlsOptions,
): Promise<LocalServer> {
  return listening(tlsServer(certificate, options));
}

/**
 * A server that picks X25519MLKEM768 when a hello offers it (the raw responder) and hands Node's
 * own client, which cannot offer it, to a real TLS 1.3 server: hybrid, classical authentication.
 */
export async function startHybridServer(certificate: SelfSignedCertificate): Promise<LocalServer> {
  const backend = tlsServer(certificate, { minVersion: 'TLSv1.3' });
  const responder = await startHybridResponder('hello-retry', { forwardClassicalTo: backend });
  return { port: responder.port, close: responder.close };
}

export interface Switchboard extends LocalServer {
  /** Where the next connections go (a port on 127.0.0.1). */
  route: (port: number) => void;
  /** Connections accepted so far. */
  connections: () => number;
}

export async function startSwitchboard(): Promise<Switchboard> {
  let target = 0;
  let accepted = 0;
  const server = createNetServer((socket) => {
    accepted++;
    const upstream = netConnect(target, '127.0.0.1');
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
    socket.pipe(upstream).pipe(socket);
  });
  const local = await listening(server);
  return {
    ...local,
    route: (port) => {
      target = port;
    },
    connections: () => accepted,
  };
}

/** Opens loopback to the tenant's TLS probes (the operator's per-tenant allow-list). */
export function allowLoopbackProbes(t: TestApp, tenantId: string): void {
  t.config.outbound.tenantAllow[tenantId] = {
    ...t.config.outbound.tenantAllow[tenantId],
    'tls-probes': ['127.0.0.0/8'],
  };
}

/** Watches 127.0.0.1:`port` through the API; returns the endpoint's id. */
export async function watchEndpoint(
  t: TestApp,
  token: string,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await t.as(token, {
    method: 'POST',
    url: '/api/v1/quantum/tls-endpoints',
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().endpointId as string;
}

/** Queues a probe through the API and runs the jobs it starts (the probe, its alerts). */
export async function probeNow(t: TestApp, token: string, endpointId: string): Promise<void> {
  const res = await t.as(token, {
    method: 'POST',
    url: `/api/v1/quantum/tls-endpoints/${endpointId}/probe`,
  });
  expect(res.statusCode, res.body).toBe(202);
  await t.runJobs();
}

/**
 * Makes the service emit both TLS events for `tenant` (the events-schema scenario): an endpoint
 * seen hybrid, then classical (`quantum.tls_verdict_changed`), with one-day certificates
 * (`quantum.tls_certificate_expiring`).
 */
export async function emitTlsObservationEvents(t: TestApp, tenant: TestTenant): Promise<void> {
  allowLoopbackProbes(t, tenant.tenantId);
  const certificate = selfSignedCertificate('events.tls.test', ['DNS:events.tls.test']);
  const hybrid = await startHybridServer(certificate);
  const classical = await startTlsServer(certificate, { minVersion: 'TLSv1.3' });
  const board = await startSwitchboard();
  try {
    board.route(hybrid.port);
    const endpointId = await watchEndpoint(t, tenant.token, {
      host: '127.0.0.1',
      port: board.port,
      serverName: 'events.tls.test',
    });
    await probeNow(t, tenant.token, endpointId);
    board.route(classical.port);
    await probeNow(t, tenant.token, endpointId);
  } finally {
    await Promise.all([hybrid.close(), classical.close(), board.close()]);
    certificate.remove();
  }
}

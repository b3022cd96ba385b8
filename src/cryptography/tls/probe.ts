/**
 * The hybrid-group probe: one raw TLS 1.3 ClientHello over node:net, offering the hybrid ML-KEM
 * groups first, and the server's first answer read back. A server that supports
 * X25519MLKEM768 answers a hello carrying only an X25519 share with a HelloRetryRequest naming
 * 0x11EC; a classical one answers with a ServerHello on x25519; a TLS-1.2-only one with a
 * ServerHello without supported_versions, or an alert. The socket is destroyed after that
 * first answer: no handshake is completed and no key is derived.
 *
 * Some TLS stacks (Go's crypto/tls, rustls) prefer a group the client already sent a share
 * for, to save a round trip, so they answer the X25519 share on x25519 even when they support
 * a hybrid. When the first answer is a TLS 1.3 ServerHello on a classical group, the probe
 * therefore asks once more with no key share at all (RFC 8446 section 4.2.8 allows an empty list),
 * which makes any TLS 1.3 server name the group it prefers in a HelloRetryRequest.
 *
 * The address is an IP literal the caller has already checked with the outbound guard; the
 * server name only goes into SNI and is never resolved here.
 */

import { connect as netConnect, type Socket } from 'node:net';
import { CIPHER_SUITES, encodeClientHello, type KeyShare, x25519KeyShare } from './client-hello.js';
import { describeGroup, hex16, isPostQuantumGroup, type NamedGroup } from './groups.js';
import { DEFAULT_MAX_ANSWER_BYTES } from './records.js';
import { type AlertLevel, createServerAnswerReader, type ServerAnswer } from './server-hello.js';

export interface HybridProbeOptions {
  /** An IP literal, already checked by the outbound guard. */
  address: string;
  port: number;
  /** Sent as SNI (when it is a DNS name); never resolved. */
  servername?: string | undefined;
  /** Per connection; the probe makes at most two. */
  timeoutMs: number;
  /** How the TCP connection is opened (default: node:net to address and port). */
  connect?: ((address: string, port: number) => Socket) | undefined;
  /** Ask again without a key share when the first answer is classical (default true). */
  retryWithoutKeyShare?: boolean | undefined;
  /** Bytes read before an answer is given up on (default 32 KiB). */
  maxAnswerBytes?: number | undefined;
}

export type ProbeAnswerKind = 'hello-retry-request' | 'server-hello' | 'alert' | 'none';

export interface HybridProbeResult {
  /** A TCP connection was made. */
  reachable: boolean;
  /** The server chose TLS 1.3 (supported_versions in its ServerHello or HelloRetryRequest). */
  tls13: boolean;
  /** The deciding answer was a HelloRetryRequest. */
  helloRetry: boolean;
  /** The group the server selected (the key share's group, or an HRR's selected_group). */
  selectedGroup: NamedGroup | null;
  cipherSuite?: { code: number; name: string };
  answer: ProbeAnswerKind;
  alert?: { level: AlertLevel; description: number; name: string };
  /** The key shares the deciding ClientHello carried. */
  keyShareOffered: 'x25519' | 'none';
  /** ClientHellos sent (1 or 2). */
  attempts: number;
  /** Why the probe learnt nothing (or less than it asked), in a fixed sentence. */
  problem?: string;
  /** A socket error code (ECONNREFUSED, ETIMEDOUT, ...), for the server log. */
  errorCode?: string;
}

interface Exchange {
  connected: boolean;
  answer: ServerAnswer | null;
  problem?: string;
  errorCode?: string;
}

export async function probeHybridGroups(options: HybridProbeOptions): Promise<HybridProbeResult> {
  const first = resultOf(await exchangeHello(options, [x25519KeyShare()]), 'x25519', 1);
  const classicalTls13 =
    first.answer === 'server-hello' && first.tls13 && !isPostQuantumGroup(first.selectedGroup);
  if (!classicalTls13 || options.retryWithoutKeyShare === false) return first;
  const second = resultOf(await exchangeHello(options, []), 'none', 2);
  const secondAnswered =
    second.answer === 'hello-retry-request' || second.answer === 'server-hello';
  // The second look decides only when it got a TLS 1.3 answer; an alert (a server that
  // refuses an empty key share) leaves the first answer standing.
  return secondAnswered && second.tls13 ? second : { ...first, attempts: 2 };
}

function resultOf(
  exchange: Exchange,
  keyShareOffered: 'x25519' | 'none',
  attempts: number,
): HybridProbeResult {
  const base: HybridProbeResult = {
    reachable: exchange.connected,
    tls13: false,
    helloRetry: false,
    selectedGroup: null,
    answer: 'none',
    keyShareOffered,
    attempts,
  };
  if (exchange.errorCode) base.errorCode = exchange.errorCode;
  const answer = exchange.answer;
  if (!answer) return { ...base, problem: exchange.problem ?? 'the server did not answer' };
  switch (answer.kind) {
    case 'malformed':
      return { ...base, problem: `the answer could not be read: ${answer.problem}` };
    case 'alert': {
      const { level, description, name } = answer;
      return {
        ...base,
        answer: 'alert',
        alert: { level, description, name },
        problem: `the server answered with the alert ${name}`,
      };
    }
    default: {
      const { hello } = answer;
      return {
        ...base,
        answer: answer.kind,
        tls13: hello.version === 0x0304,
        helloRetry: answer.kind === 'hello-retry-request',
        selectedGroup: hello.keyShareGroup === null ? null : describeGroup(hello.keyShareGroup),
        cipherSuite: {
          code: hello.cipherSuite,
          name: CIPHER_SUITES[hello.cipherSuite] ?? hex16(hello.cipherSuite),
        },
      };
    }
  }
}

/** One connection: write the hello, read the first answer, destroy the socket. */
function exchangeHello(options: HybridProbeOptions, keyShares: KeyShare[]): Promise<Exchange> {
  const hello = encodeClientHello({ serverName: options.servername, keyShares });
  const reader = createServerAnswerReader(options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES);
  const socket = openSocket(options);
  if (!socket)
    return Promise.resolve({
      connected: false,
      answer: null,
      problem: 'no connection could be opened',
    });
  return new Promise((resolve) => {
    let connected = false;
    let settled = false;
    const finish = (exchange: Omit<Exchange, 'connected'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ connected, ...exchange });
    };
    const timer = setTimeout(() => {
      const problem = connected
        ? `no answer within ${options.timeoutMs} ms`
        : `no connection within ${options.timeoutMs} ms`;
      finish({ answer: null, problem });
    }, options.timeoutMs);
    const send = () => {
      connected = true;
      socket.setNoDelay(true);
      socket.write(hello);
    };
    if (socket.connecting) socket.once('connect', send);
    else if (!socket.destroyed) send();
    socket.on('data', (chunk: Buffer) => {
      const answer = reader.push(chunk);
      if (answer) finish({ answer });
    });
    socket.once('end', () =>
      finish({ answer: null, problem: 'the server closed the connection without answering' }),
    );
    socket.once('close', () =>
      finish({ answer: null, problem: 'the connection closed without an answer' }),
    );
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const problem = connected
        ? 'the connection failed before an answer'
        : 'the address could not be reached';
      finish({ answer: null, problem, errorCode: error.code ?? 'ERROR' });
    });
  });
}

function openSocket(options: HybridProbeOptions): Socket | null {
  try {
    if (options.connect) return options.connect(options.address, options.port);
    return netConnect({ host: options.address, port: options.port });
  } catch {
    return null; // an invalid port or a connect function that refused
  }
}

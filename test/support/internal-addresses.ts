import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * Hosts that must never be reached from a user-given URL (docs/outbound-guard.md), in every
 * spelling the adversarial test of issue 11 used and more. Each is a URL host part (IPv6 in
 * brackets); `loopback` marks those that lead to 127.0.0.1 or ::1, where the tests' counting
 * listener waits for a connection that must never come.
 */
export interface InternalHost {
  host: string;
  what: string;
  loopback: boolean;
}

const loop = (host: string, what: string): InternalHost => ({ host, what, loopback: true });
const other = (host: string, what: string): InternalHost => ({ host, what, loopback: false });

export const INTERNAL_HOSTS: InternalHost[] = [
  loop('127.0.0.1', 'loopback'),
  loop('127.1', 'loopback, short form'),
  loop('127.0.1', 'loopback, three parts'),
  loop('2130706433', 'loopback, decimal'),
  loop('0x7f000001', 'loopback, hex'),
  loop('0x7f.1', 'loopback, hex short'),
  loop('0x7f.0x0.0x0.0x1', 'loopback, hex parts'),
  loop('0177.0.0.1', 'loopback, octal'),
  loop('0177.1', 'loopback, octal short'),
  loop('017700000001', 'loopback, octal whole'),
  loop('127.000.000.001', 'loopback, zero-padded'),
  loop('127.0.0.1.', 'loopback, trailing dot'),
  loop('127.255.255.254', 'loopback, end of 127/8'),
  loop('0', 'unspecified, "0"'),
  loop('0.0.0.0', 'unspecified'),
  loop('0x0', 'unspecified, hex'),
  loop('[::1]', 'IPv6 loopback'),
  loop('[0:0:0:0:0:0:0:1]', 'IPv6 loopback, long'),
  loop('[::]', 'IPv6 unspecified'),
  loop('[::ffff:127.0.0.1]', 'IPv4-mapped loopback'),
  loop('[::ffff:7f00:1]', 'IPv4-mapped loopback, hex'),
  loop('[0:0:0:0:0:ffff:127.0.0.1]', 'IPv4-mapped loopback, long'),
  loop('[::ffff:0:127.0.0.1]', 'IPv4-translated loopback'),
  loop('[::127.0.0.1]', 'IPv4-compatible loopback'),
  loop('[64:ff9b::127.0.0.1]', 'NAT64 loopback'),
  loop('[2002:7f00:1::]', '6to4 loopback'),
  loop('localhost', 'localhost'),
  loop('LOCALHOST', 'localhost, upper case'),
  loop('localhost.', 'localhost, trailing dot'),
  loop('api.localhost', '*.localhost'),
  loop('a.b.localhost.', '*.localhost, trailing dot'),
  other('169.254.169.254', 'cloud metadata'),
  other('2852039166', 'cloud metadata, decimal'),
  other('0xa9fea9fe', 'cloud metadata, hex'),
  other('0251.0376.0251.0376', 'cloud metadata, octal'),
  other('169.254.43518', 'cloud metadata, short form'),
  other('[::ffff:169.254.169.254]', 'cloud metadata, IPv4-mapped'),
  other('[::ffff:a9fe:a9fe]', 'cloud metadata, IPv4-mapped hex'),
  other('169.254.170.2', 'container metadata'),
  other('100.100.100.200', 'cloud metadata (CGNAT range)'),
  other('[fd00:ec2::254]', 'cloud metadata, IPv6'),
  other('169.254.0.1', 'link-local'),
  other('[fe80::1]', 'IPv6 link-local'),
  other('10.0.0.1', 'private 10/8'),
  other('10.255.255.255', 'private 10/8, end'),
  other('172.16.0.1', 'private 172.16/12'),
  other('172.31.255.254', 'private 172.16/12, end'),
  other('192.168.0.1', 'private 192.168/16'),
  other('192.168.1.1', 'private 192.168/16'),
  other('[::ffff:10.0.0.1]', 'IPv4-mapped private'),
  other('[::ffff:192.168.0.1]', 'IPv4-mapped private'),
  other('100.64.0.1', 'CGNAT'),
  other('[fc00::1]', 'IPv6 unique-local'),
  other('[fd12:3456::1]', 'IPv6 unique-local'),
  other('224.0.0.1', 'multicast'),
  other('239.255.255.250', 'multicast (SSDP)'),
  other('[ff02::1]', 'IPv6 multicast'),
  other('255.255.255.255', 'broadcast'),
  other('240.0.0.1', 'reserved'),
  other('192.0.2.1', 'documentation'),
  other('198.18.0.1', 'benchmarking'),
  other('[2001:db8::1]', 'IPv6 documentation'),
];

/** Names this machine resolves to loopback besides localhost (from /etc/hosts), if any. */
export function loopbackNames(): InternalHost[] {
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of hosts.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || !(address.startsWith('127.') || address === '::1')) continue;
    for (const alias of aliases) if (!alias.includes('localhost')) names.add(alias);
  }
  return [...names].map((host) => ({ host, what: 'a name resolving to loopback', loopback: true }));
}

/** A TCP listener that counts connections (the tests assert it stays at 0). */
export interface CountingListener {
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
}

/**
 * Listens on 127.0.0.1 (and ::1 on the same port where the machine has IPv6 loopback), or on
 * the given hosts, counting every connection and closing it at once.
 */
export async function startCountingListener(
  hosts: string[] = ['127.0.0.1', '::1'],
  port = 0,
): Promise<CountingListener> {
  let count = 0;
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  let bound = port;
  for (const host of hosts) {
    const server = createServer((socket) => {
      count++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.destroy();
    });
    if (await listen(server, host, bound)) {
      bound = (server.address() as { port: number }).port;
      servers.push(server);
    } else if (servers.length === 0) {
      throw new Error(`could not listen on ${host}`);
    }
  }
  return {
    port: bound,
    connections: () => count,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Helpers of test/e2e/many-processes.test.ts: several service processes on one database. */

export function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 6379 });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A `git` that hangs on the clone of one repository (recording its pid), else the real git. */
export function gitHangingOn(target: string) {
  const binDir = mkdtempSync(join(tmpdir(), 'driftwatch-hang-git-'));
  const marker = join(binDir, 'hung.pid');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const script = `#!/bin/sh
case "$*" in *clone*'${target}'*) if [ ! -e '${marker}' ]; then echo $$ > '${marker}'; exec sleep 90; fi ;; esac
exec '${realGit}' "$@"
`;
  writeFileSync(join(binDir, 'git'), script);
  chmodSync(join(binDir, 'git'), 0o755);
  return {
    binDir,
    hung: () => (existsSync(marker) ? Number(readFileSync(marker, 'utf8').trim()) || null : null),
    remove: () => rmSync(binDir, { recursive: true, force: true }),
  };
}

/** The parent of `pid`, from /proc (Linux). */
export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) || null;
  } catch {
    return null;
  }
}

/** Which of `candidates` has `pid` among its descendants. */
export function ancestorAmong(pid: number, candidates: number[]): number | null {
  for (let current: number | null = pid; current && current > 1; current = parentOf(current)) {
    if (candidates.includes(current)) return current;
  }
  return null;
}

export interface Call {
  status: number;
  body: unknown;
  correlationId: string;
}

/** An API client that sends a fresh correlation id with every request and keeps the writes. */
export function client(base: () => string, token: string, writes: Call[]) {
  return async (method: string, path: string, body?: unknown): Promise<Call> => {
    const correlationId = randomUUID();
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-correlation-id': correlationId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const call = { status: response.status, body: text ? JSON.parse(text) : null, correlationId };
    if (method !== 'GET') writes.push(call);
    return call;
  };
}

export const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;

/** The first element of a list body's `items`. */
export const firstItem = (body: unknown): unknown => {
  const items = field(body, 'items');
  return Array.isArray(items) ? items[0] : undefined;
};

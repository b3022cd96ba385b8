import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The shared part of the four fake providers: a real HTTP server on 127.0.0.1 (port 0), a log of
 * the requests it received, and switches that make it misbehave the way real services do.
 */
export type FakeMode =
  /** Answer like the real API. */
  | 'ok'
  /** Every request is refused with the provider's 401 answer. */
  | 'unauthorized'
  /** Every request fails with the provider's 500 answer. */
  | 'error'
  /** Connections are accepted and dropped at once (the client sees a network error). */
  | 'down'
  /** The next request gets 429 with Retry-After: 0, then the server answers normally. */
  | 'rate-limited-once';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Send `body` as is (a string) instead of JSON. */
  raw?: boolean;
}

export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type FakeHandler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeServerOptions {
  unauthorized: () => FakeAnswer;
  error: () => FakeAnswer;
}

export class FakeServer {
  url = '';
  mode: FakeMode = 'ok';
  /** Largest page the server hands out, whatever the client asks (real services cap at 100). */
  maxPageSize = 100;
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;

  constructor(
    private readonly handler: FakeHandler,
    private readonly options: FakeServerOptions,
  ) {}

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Page size the server applies to a request asking for `asked` items. */
  pageSize(asked: string | null, fallback: number): number {
    const n = Number(asked ?? fallback);
    return Math.max(1, Math.min(Number.isInteger(n) && n > 0 ? n : fallback, this.maxPageSize));
  }

  reset(): void {
    this.mode = 'ok';
    this.maxPageSize = 100;
    this.requests.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
    });
    if (this.mode === 'down') {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let answer: FakeAnswer;
    if (this.mode === 'unauthorized') {
      answer = this.options.unauthorized();
    } else if (this.mode === 'error') {
      answer = this.options.error();
    } else if (this.mode === 'rate-limited-once') {
      this.mode = 'ok';
      answer = { status: 429, headers: { 'retry-after': '0' }, body: { message: 'slow down' } };
    } else {
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      answer = await this.handler({ method: req.method ?? 'GET', url, headers: req.headers, body });
    }
    const payload =
      answer.body === undefined
        ? ''
        : answer.raw
          ? String(answer.body)
          : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...(answer.body !== undefined && !answer.raw
        ? { 'content-type': 'application/json; charset=utf-8' }
        : {}),
      ...answer.headers,
    });
    res.end(payload);
  }
}

/** The Authorization header's basic credential, or null. */
export function basicCredential(
  header: string | undefined,
): { username: string; password: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function bearer(header: string | undefined): string | null {
  return /^Bearer (\S+)$/.exec(header ?? '')?.[1] ?? null;
}

/** A page of `items` (1-based `page`), and whether another follows. */
export function pageOf<T>(items: T[], page: number, size: number): { items: T[]; more: boolean } {
  const start = (page - 1) * size;
  return { items: items.slice(start, start + size), more: start + size < items.length };
}

export const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

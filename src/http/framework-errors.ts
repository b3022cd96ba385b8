import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problemTypeFor, titleFor } from '../core/problem';
import { newId } from '../db/ids';
import { sendProblem, sendUnexpected } from './error-handler';

/**
 * The framework's own answers, rendered as problem documents like every other error
 * (docs/http-rules.md): errors found while routing (`frameworkErrors`), 404 and 405 from the
 * route table, and the HTTP parser's rejections before a request exists (`clientError`).
 */

/** Longest path parameter the router accepts (a longer one is a 414 problem). */
export const MAX_PARAM_LENGTH = 100;

/** Fastify's `frameworkErrors` option: a URL that cannot be decoded or routed. */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  reply.header('X-Correlation-Id', request.id);
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendProblem(request, reply, 400, 'The URL contains invalid percent-encoding.', {
        path: ['must be valid percent-encoded UTF-8'],
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendProblem(request, reply, 414, 'A path segment of the URL is too long.', {
        path: [`segments must be at most ${MAX_PARAM_LENGTH} characters`],
      });
    default:
      return sendUnexpected(request, reply, error, 'framework error');
  }
}

/** Route patterns by method, from the route table, to tell a 405 from a 404. */
export interface RouteTable {
  /** Methods with a route matching `path`, sorted; empty when no route does. */
  allowedMethods(path: string): string[];
}

function patternOf(url: string): RegExp | null {
  // The catch-all routes (CORS preflight) match every path and say nothing about it.
  if (url === '*' || url === '/*') return null;
  const body = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** Collects every route as it is added (register before the routes). */
export function collectRouteTable(app: FastifyInstance): RouteTable {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const pattern = patternOf(route.url);
    if (!pattern) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ pattern, methods: methods.map(String) });
  });
  return {
    allowedMethods: (path) => {
      const allowed = new Set<string>();
      for (const route of routes) {
        if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
      }
      return [...allowed].sort();
    },
  };
}

/** 404, or 405 with `Allow` when the path exists under other methods; before the routes. */
export function registerNotFound(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | null,
): void {
  const refuse = notFoundOrNotAllowed(collectRouteTable(app));
  // The web app's client-side routes (src/http/web-app.ts) answer before the 404.
  app.setNotFoundHandler((request, reply) => fallback?.(request, reply) ?? refuse(request, reply));
}

/** The not-found handler: 405 with `Allow` when the path exists under other methods, else 404. */
export function notFoundOrNotAllowed(table: RouteTable) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = table.allowedMethods(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('Allow', allowed.join(', '));
      return sendProblem(
        request,
        reply,
        405,
        `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
      );
    }
    return sendProblem(request, reply, 404, `No route matches ${request.method} ${path}.`);
  };
}

/** The status and detail for an HTTP parser error (Node rejects these before routing). */
function parserProblem(code: string | undefined): { status: number; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'The request headers (or the URL) are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'The request was not received in time.' };
    default:
      return { status: 400, detail: 'The request is not well-formed HTTP.' };
  }
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request (oversized headers or
 * URL, malformed syntax, timeout). No request object exists; the answer is written to the socket
 * as a problem document with a fresh correlation id, then the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = parserProblem(error.code);
  const correlationId = newId();
  const body = JSON.stringify({
    type: problemTypeFor(status),
    title: titleFor(status),
    status,
    detail,
    instance: null,
    correlationId,
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${titleFor(status)}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Correlation-Id: ${correlationId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

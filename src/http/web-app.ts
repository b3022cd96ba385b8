import { readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../core/problem';

/**
 * The web app (web/README.md) served by the service itself: dist/web's index.html at / and at
 * every client-side route, its content-hashed files under /assets/. index.html is revalidated
 * on every load and carries a strict Content-Security-Policy; hashed files are immutable. When
 * the app is not built (running from sources, test apps), / says so in a plain 503.
 */

export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** An asset's name: one path segment of safe characters, never `..` or a separator. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/** Paths the service owns: never answered with the app's index.html. */
const SERVICE_PATHS = /^\/(api|docs|status)(\/|$)/;

const NOT_BUILT = `The web app is not built.

Run \`npm run build\` (it also runs on \`npm install\`), then restart the service.
The API is served meanwhile: /docs (reference), /api/v1/openapi.json, /api/v1 (index), /status.
`;

/**
 * Where the built app is: dist/web beside the compiled service (this module is then
 * dist/src/http/web-app.js), or the checkout's dist/web when running from sources.
 */
export function builtWebAppDir(moduleUrl: string = import.meta.url): string {
  const root = resolve(fileURLToPath(new URL('.', moduleUrl)), '..', '..');
  return basename(root) === 'dist' ? join(root, 'web') : join(root, 'dist', 'web');
}

export interface WebApp {
  /** Registers GET / and GET /assets/:name. */
  register(app: FastifyInstance): void;
  /** For the not-found handler: serves index.html for a client-side route, else null. */
  fallback(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | null;
}

/** Whether a request that matched no route is a person opening a client-side route. */
export function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? request.url;
  if (SERVICE_PATHS.test(path) || path.startsWith('/assets/')) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Whether a request is for the web app's page itself (`/` or a client-side route): static, like
 * its assets, and not rate-limited by IP (docs/decisions/0011-web-app-not-rate-limited.md); the
 * API calls the page then makes carry the person's token and count against it.
 */
export function isWebAppDocument(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? request.url;
  if (path === '/') return request.method === 'GET' || request.method === 'HEAD';
  return request.is404 && isClientRoute(request);
}

/** `dir` is the built app (dist/web), or null where there is none. */
export function webApp(dir: string | null): WebApp {
  const sendIndex = async (reply: FastifyReply): Promise<FastifyReply> => {
    const html = dir === null ? null : await readFile(join(dir, 'index.html')).catch(() => null);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', 'no-cache');
    if (html === null) {
      return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    }
    reply.header('Content-Security-Policy', WEB_CSP);
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    return reply.type('text/html; charset=utf-8').send(html);
  };

  const sendAsset = async (name: string, reply: FastifyReply): Promise<FastifyReply> => {
    const type = TYPES[extname(name)];
    if (dir === null || !ASSET_NAME.test(name) || type === undefined) throw notFound('The file');
    const body = await readFile(join(dir, 'assets', name)).catch(() => null);
    if (body === null) throw notFound('The file');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', IMMUTABLE);
    return reply.type(type).send(body);
  };

  return {
    register(app) {
      const options = { schema: { hide: true }, config: { auth: false } } as const;
      app.get('/', options, (_request, reply) => sendIndex(reply));
      app.get<{ Params: { name: string } }>('/assets/:name', options, (request, reply) =>
        sendAsset(request.params.name, reply),
      );
    },
    fallback: (request, reply) => (isClientRoute(request) ? sendIndex(reply) : null),
  };
}

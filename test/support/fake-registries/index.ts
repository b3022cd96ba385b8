import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RegistriesSettings } from '../../../src/ecosystems/registry-types';
import { ECOSYSTEMS, type Ecosystem } from '../../../src/ecosystems/types';
import { type FakePackage, generatePackage, sha256 } from './model';
import { renderGo, renderMaven } from './render-files';
import {
  type FakeResponse,
  type RenderContext,
  renderCrates,
  renderNpm,
  renderPypi,
  renderRubygems,
} from './render-json';
import { renderNuget, renderOci, renderPackagist } from './render-other';
import { seedPackages } from './seed';

export type { FakePackage, FakeVersion } from './model';
export { generatePackage } from './model';

/**
 * One local HTTP server on 127.0.0.1 that plays all nine registries, each under its own path
 * prefix, answering with documents in the registries' real shapes (rendered from FakePackage
 * records, so tests and benchmarks can add or generate packages). It honours conditional
 * requests (ETag/If-None-Match, Last-Modified/If-Modified-Since → 304), and faults can be
 * injected per path: a status (429 with Retry-After, 5xx), any body (hostile JSON/XML), delays.
 */

/** Path prefix of each registry on the fake server, and what the client's base URL appends. */
const PREFIX: Record<Ecosystem, string> = {
  npm: '/npm',
  PyPI: '/pypi-api',
  Maven: '/maven2',
  Go: '/goproxy',
  Cargo: '/crates',
  RubyGems: '/rubygems',
  Composer: '/packagist',
  NuGet: '/nuget',
  Docker: '/oci',
};

/** The key a registry looks a package up by (its own case and normalisation rules). */
const LOOKUP: Record<Ecosystem, (name: string) => string> = {
  npm: (n) => n,
  PyPI: (n) => n.toLowerCase().replace(/[-_.]+/g, '-'),
  Maven: (n) => n,
  Go: (n) => n,
  Cargo: (n) => n.toLowerCase().replace(/_/g, '-'),
  RubyGems: (n) => n,
  Composer: (n) => n.toLowerCase(),
  NuGet: (n) => n.toLowerCase(),
  Docker: (n) => n,
};

export interface Fault {
  /** Path on the server (`/npm/left-pad`) or a prefix ending in `*`. */
  path: string;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** How many requests it answers (default 1; Infinity for all). */
  times?: number;
  /** Hold the answer this long (ms), e.g. to exercise client timeouts. */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeRegistries {
  /** Base URL per ecosystem, as the client settings take it. */
  baseUrls: Record<Ecosystem, string>;
  origin: string;
  /** The npm download-counts API on this server. */
  npmDownloadsUrl: string;
  /** Registries settings pointing every client at this server (npm download counts included). */
  settings(overrides?: Partial<Omit<RegistriesSettings, 'baseUrls'>>): RegistriesSettings;
  /** Adds or replaces a package (its documents, and so their ETags, change). */
  addPackage(ecosystem: Ecosystem, pkg: FakePackage): void;
  removePackage(ecosystem: Ecosystem, name: string): void;
  getPackage(ecosystem: Ecosystem, name: string): FakePackage | undefined;
  /** Adds `count` generated packages (see generatePackage) and returns their names. */
  generate(
    ecosystem: Ecosystem,
    count: number,
    options?: { versions?: number; offset?: number },
  ): string[];
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface FakeRegistriesOptions {
  /** Start without the seed packages. */
  empty?: boolean;
  /** OCI registry demands bearer tokens (default true). */
  ociAuth?: boolean;
  /** Keep the request log (default true; benchmarks turn it off). */
  recordRequests?: boolean;
}

export async function startFakeRegistries(
  options: FakeRegistriesOptions = {},
): Promise<FakeRegistries> {
  const stores = new Map<Ecosystem, Map<string, FakePackage>>(
    ECOSYSTEMS.map((e) => [e, new Map()]),
  );
  const faults: Array<Fault & { remaining: number }> = [];
  const requests: RecordedRequest[] = [];
  const record = options.recordRequests !== false;
  const rendered = new Map<string, { etag: string; response: FakeResponse }>();
  let origin = '';

  const addPackage = (ecosystem: Ecosystem, pkg: FakePackage) => {
    stores.get(ecosystem)!.set(LOOKUP[ecosystem](pkg.name), pkg);
    rendered.clear();
  };
  if (!options.empty) {
    const seed = seedPackages();
    for (const ecosystem of ECOSYSTEMS)
      for (const pkg of seed[ecosystem]) addPackage(ecosystem, pkg);
  }

  function route(url: URL, headers: IncomingMessage['headers']): FakeResponse | null {
    const path = url.pathname;
    for (const ecosystem of ECOSYSTEMS) {
      const prefix = PREFIX[ecosystem];
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      let rest: string;
      try {
        rest = decodeURIComponent(path.slice(prefix.length)) || '/';
      } catch {
        return { status: 400, body: 'bad path' };
      }
      const store = stores.get(ecosystem)!;
      const ctx: RenderContext = {
        base: `${origin}${prefix}`,
        path: rest,
        query: url.searchParams,
        headers,
        find: (key) => store.get(LOOKUP[ecosystem](key)),
      };
      switch (ecosystem) {
        case 'npm':
          return renderNpm(ctx);
        case 'PyPI':
          return renderPypi(ctx);
        case 'Maven':
          return renderMaven(ctx);
        case 'Go':
          return renderGo(ctx);
        case 'Cargo':
          return renderCrates(ctx);
        case 'RubyGems':
          return renderRubygems(ctx);
        case 'Composer':
          return renderPackagist(ctx);
        case 'NuGet':
          return renderNuget(ctx);
        case 'Docker':
          return renderOci(ctx, options.ociAuth !== false);
      }
    }
    return null;
  }

  /** The npm download-counts API: `/npm-downloads/downloads/point/last-week/<name>`. */
  function npmDownloads(path: string): FakeResponse | null {
    const match = /^\/npm-downloads\/downloads\/point\/last-week\/(.+)$/.exec(path);
    if (!match) return null;
    const name = decodeURIComponent(match[1]!);
    const pkg = stores.get('npm')!.get(name);
    if (!pkg)
      return {
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: `{"error":"package ${name} not found"}`,
      };
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        downloads: pkg.downloads,
        start: '2024-06-01',
        end: '2024-06-07',
        package: name,
      }),
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    if (record)
      requests.push({
        method: request.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        headers: request.headers,
      });
    const fault = faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.path.endsWith('*')
          ? url.pathname.startsWith(f.path.slice(0, -1))
          : url.pathname === f.path),
    );
    if (fault) {
      fault.remaining--;
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.status !== undefined || fault.body !== undefined) {
        response.writeHead(fault.status ?? 200, {
          'content-type': 'application/json',
          ...fault.headers,
        });
        response.end(request.method === 'HEAD' ? undefined : (fault.body ?? ''));
        return;
      }
    }
    const key = `${url.pathname}${url.search}|${request.headers.authorization ?? ''}`;
    let answer = rendered.get(key);
    if (!answer) {
      const result = npmDownloads(url.pathname) ??
        route(url, request.headers) ?? {
          status: 404,
          headers: { 'content-type': 'text/plain' },
          body: 'Not Found',
        };
      answer = { etag: `"${sha256(result.body).slice(0, 32)}"`, response: result };
      if (result.status === 200 && rendered.size < 50_000) rendered.set(key, answer);
    }
    const { status, body } = answer.response;
    const headers: Record<string, string> = { ...answer.response.headers };
    if (status === 200) {
      headers.etag = answer.etag;
      const lastModified = headers['last-modified'];
      const etagMatch = request.headers['if-none-match'] === answer.etag;
      const sinceMatch =
        request.headers['if-none-match'] === undefined &&
        lastModified !== undefined &&
        request.headers['if-modified-since'] !== undefined &&
        Date.parse(request.headers['if-modified-since']) >= Date.parse(lastModified);
      if (etagMatch || sinceMatch) {
        response.writeHead(304, {
          etag: answer.etag,
          ...(lastModified ? { 'last-modified': lastModified } : {}),
        });
        response.end();
        return;
      }
    }
    headers['content-length'] = String(Buffer.byteLength(body));
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrls = Object.fromEntries(
    ECOSYSTEMS.map((e) => [
      e,
      e === 'NuGet' ? `${origin}/nuget/v3/index.json` : `${origin}${PREFIX[e]}`,
    ]),
  ) as Record<Ecosystem, string>;

  return {
    baseUrls,
    origin,
    npmDownloadsUrl: `${origin}/npm-downloads`,
    settings: (overrides = {}) => ({
      baseUrls: { ...baseUrls },
      npmDownloadsUrl: `${origin}/npm-downloads`,
      timeoutMs: 5000,
      maxResponseBytes: 16 * 1024 * 1024,
      cacheEntries: 1000,
      maxVersionDetails: 40,
      ...overrides,
    }),
    addPackage,
    removePackage: (ecosystem, name) => {
      stores.get(ecosystem)!.delete(LOOKUP[ecosystem](name));
      rendered.clear();
    },
    getPackage: (ecosystem, name) => stores.get(ecosystem)!.get(LOOKUP[ecosystem](name)),
    generate: (ecosystem, count, generateOptions = {}) => {
      const names: string[] = [];
      const offset = generateOptions.offset ?? 1000;
      for (let i = 0; i < count; i++) {
        const pkg = generatePackage(ecosystem, offset + i, generateOptions.versions ?? 12);
        addPackage(ecosystem, pkg);
        names.push(pkg.name);
      }
      return names;
    },
    inject: (fault) => faults.push({ ...fault, remaining: fault.times ?? 1 }),
    clearFaults: () => {
      faults.length = 0;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

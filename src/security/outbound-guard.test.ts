import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingListener,
  INTERNAL_HOSTS,
  startCountingListener,
} from '../../test/support/internal-addresses';
import { selfSignedCertificate } from '../../test/support/tls-certificate';
import { type ConfigError, loadConfig } from '../config';
import { PROVIDER_HTTP_LIMITS, providerRequest } from '../sources/http';
import { ProviderError } from '../sources/types';
import {
  checkHost,
  guardedFetch,
  type OutboundPolicy,
  OutboundRefusedError,
  outboundPolicy,
  pinnedAgent,
  REFUSED_MESSAGE,
  type Resolver,
} from './outbound-guard';
import { type Cidr, parseCidr, refusalReason } from './outbound-guard-ranges';

const cidrs = (...list: string[]) => list.map((c) => parseCidr(c) as Cidr);
const NOTHING: OutboundPolicy = { allow: [] };

async function refusal(work: Promise<unknown>): Promise<OutboundRefusedError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefusedError);
  return error as OutboundRefusedError;
}

/** A resolver answering from a table; counts its calls. */
function tableResolver(answers: Record<string, string[] | string[][]>): Resolver & {
  calls: () => number;
} {
  let calls = 0;
  const seen = new Map<string, number>();
  const resolver = async (name: string) => {
    calls++;
    const entry = answers[name];
    if (!entry) throw Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    // A list of lists answers differently on each call (rebinding).
    const list = Array.isArray(entry[0])
      ? ((entry as string[][])[Math.min(n, entry.length - 1)] as string[])
      : (entry as string[]);
    return list.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  };
  return Object.assign(resolver, { calls: () => calls });
}

describe('the address rules', () => {
  it.each(INTERNAL_HOSTS)('refuses $host ($what)', async ({ host }) => {
    const error = await refusal(checkHost(host, NOTHING));
    expect(error.message).toBe(REFUSED_MESSAGE);
  });

  it.each(['fe80::1%eth0', '[fe80::1%25eth0]', '[::1%lo]', 'LOCALHOST..', '127%2e0%2e0%2e1', ''])(
    'refuses %j (zone ids, encodings, empty labels)',
    async (host) => {
      await refusal(checkHost(host, NOTHING));
    },
  );

  it.each([
    ['evil.test', ['127.0.0.1'], 'a name that resolves to loopback'],
    ['evil.test', ['::1'], 'a name that resolves to IPv6 loopback'],
    ['evil.test', ['::ffff:127.0.0.1'], 'a name that resolves to mapped loopback'],
    ['evil.test', ['169.254.169.254'], 'a name that resolves to metadata'],
    ['evil.test', ['93.184.216.34', '10.0.0.5'], 'one internal answer among public ones'],
    ['evil.test', [], 'a name with no addresses'],
    ['missing.test', null, 'a name that does not resolve'],
  ])('refuses %s → %j (%s)', async (name: string, answers: string[] | null, _what: string) => {
    const resolve = tableResolver(answers ? { [name]: answers } : {});
    await refusal(checkHost(name, { allow: [], resolve }));
  });

  it('admits public addresses and names that resolve only to them', async () => {
    expect(await checkHost('93.184.216.34', NOTHING)).toMatchObject({
      address: '93.184.216.34',
      literal: true,
    });
    expect(await checkHost('[2606:2800:220:1::1]', NOTHING)).toMatchObject({ family: 6 });
    expect(await checkHost('[::ffff:93.184.216.34]', NOTHING)).toMatchObject({ literal: true });
    const resolve = tableResolver({ 'git.example.test': ['93.184.216.34', '2606:2800:220:1::1'] });
    expect(await checkHost('Git.Example.Test.', { allow: [], resolve })).toEqual({
      host: 'git.example.test',
      address: '93.184.216.34',
      family: 4,
      literal: false,
    });
  });

  it('classifies by explicit ranges, IPv6 forms by the IPv4 address they embed', () => {
    const reason = (text: string) => refusalReason(ipaddr.parse(text));
    expect(reason('8.8.8.8')).toBeNull();
    expect(reason('::ffff:8.8.8.8')).toBeNull();
    expect(reason('64:ff9b::808:808')).toBeNull();
    expect(reason('2002:808:808::1')).toBeNull();
    expect(reason('2002:0a00:0001::1')).toMatch(/private/);
    expect(reason('64:ff9b::a00:1')).toMatch(/private/);
    expect(reason('2001:0::1')).toMatch(/Teredo/);
    expect(reason('4000::1')).toBe('reserved');
    expect(reason('100.100.100.200')).toBe('cloud metadata');
  });

  it('admits operator allow-listed networks, never metadata, and keeps tenants apart', async () => {
    const allow = { allow: cidrs('10.0.0.0/8', 'fd12::/16', '169.254.0.0/16') };
    expect(await checkHost('10.1.2.3', allow)).toMatchObject({ address: '10.1.2.3' });
    expect(await checkHost('[::ffff:10.1.2.3]', allow)).toMatchObject({ literal: true });
    expect(await checkHost('[fd12::5]', allow)).toMatchObject({ family: 6 });
    await refusal(checkHost('172.16.0.1', allow));
    await refusal(checkHost('127.0.0.1', allow));
    await refusal(checkHost('169.254.169.254', allow));
    await refusal(checkHost('[fd00:ec2::254]', { allow: cidrs('fd00::/8') }));

    const tenantA = '0193f0b4-0000-7000-8000-00000000000a';
    const tenantB = '0193f0b4-0000-7000-8000-00000000000b';
    const config = loadConfig({
      OUTBOUND_ALLOW_GIT_CIDRS: '192.168.10.0/24',
      OUTBOUND_TENANT_ALLOW_CIDRS: `${tenantA}:git=10.20.0.0/16;${tenantA}:webhooks=10.30.0.1`,
    });
    const a = outboundPolicy(config, 'git', tenantA);
    const b = outboundPolicy(config, 'git', tenantB);
    expect(await checkHost('192.168.10.7', b)).toMatchObject({ address: '192.168.10.7' });
    expect(await checkHost('10.20.3.4', a)).toMatchObject({ address: '10.20.3.4' });
    await refusal(checkHost('10.20.3.4', b));
    await refusal(checkHost('10.30.0.1', a));
    await checkHost('10.30.0.1', outboundPolicy(config, 'webhooks', tenantA));
    await refusal(checkHost('192.168.10.7', outboundPolicy(config, 'webhooks', tenantA)));
    // TLS probes have lists of their own: neither git's nor webhooks' open them.
    await refusal(checkHost('10.30.0.1', outboundPolicy(config, 'tls-probes', tenantA)));
    const probes = loadConfig({
      OUTBOUND_ALLOW_TLS_PROBE_CIDRS: '192.168.20.0/24',
      OUTBOUND_TENANT_ALLOW_CIDRS: `${tenantB}:tls-probes=10.40.0.0/16`,
    });
    await checkHost('192.168.20.5', outboundPolicy(probes, 'tls-probes', tenantA));
    await checkHost('10.40.1.2', outboundPolicy(probes, 'tls-probes', tenantB));
    await refusal(checkHost('10.40.1.2', outboundPolicy(probes, 'tls-probes', tenantA)));
    await refusal(checkHost('10.40.1.2', outboundPolicy(probes, 'git', tenantB)));
  });

  it('validates the settings once, naming each bad one', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ OUTBOUND_ALLOW_GIT_CIDRS: '10.0.0.0/33' })[0]).toMatch(
      /OUTBOUND_ALLOW_GIT_CIDRS/,
    );
    expect(problems({ OUTBOUND_ALLOW_WEBHOOK_CIDRS: 'example.test' })).toHaveLength(1);
    expect(problems({ OUTBOUND_TENANT_ALLOW_CIDRS: 'acme:git=10.0.0.0/8' })).toHaveLength(1);
    expect(problems({ SCAN_FILE_URL_ROOTS: '/' })[0]).toMatch(/service's own files/);
    expect(problems({ SCAN_FILE_URL_ROOTS: process.cwd() })[0]).toMatch(/service's own files/);
    expect(problems({ SCAN_FILE_URL_ROOTS: 'relative/dir' })[0]).toMatch(/absolute/);
    // The default is one folder per tenant; a root without {tenantId} is shared on purpose.
    expect(loadConfig({ DATA_DIR: '/srv/dw' }).scans.fileUrlRoots).toEqual([
      '/srv/dw/repositories/{tenantId}',
    ]);
    expect(
      loadConfig({ DATA_DIR: '/srv/dw', SCAN_FILE_URL_ROOTS: '/srv/git/{tenantId},/srv/shared' })
        .scans.fileUrlRoots,
    ).toEqual(['/srv/git/{tenantId}', '/srv/shared']);
    const defaults = loadConfig({});
    expect(defaults.outbound.allow).toEqual({
      git: [],
      webhooks: [],
      'status-webhooks': [],
      'tls-probes': [],
    });
    expect(
      problems({ OUTBOUND_TENANT_ALLOW_CIDRS: `${randomUUID()}:ftp=10.0.0.0/8` }),
    ).toHaveLength(1);
    expect(problems({ OUTBOUND_ALLOW_STATUS_WEBHOOK_CIDRS: 'example.test' })[0]).toMatch(
      /OUTBOUND_ALLOW_STATUS_WEBHOOK_CIDRS/,
    );
  });
});

describe('connections pinned to the checked address', () => {
  let counter: CountingListener;
  let allowed: Server;
  let hits: string[];

  beforeAll(async () => {
    // 127.0.0.2 plays an allowed public server; 127.0.0.1 on the same port is the internal
    // target a rebinding or redirect would reach, counted.
    hits = [];
    allowed = createServer((request, response) => {
      hits.push(request.url ?? '');
      const to = /^\/redirect\/(.+)$/.exec(request.url ?? '')?.[1];
      if (to) {
        response.writeHead(302, { location: decodeURIComponent(to) });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => allowed.listen(0, '127.0.0.2', resolve));
    const port = (allowed.address() as { port: number }).port;
    counter = await startCountingListener(['127.0.0.1'], port);
  });
  afterAll(async () => {
    await counter.close();
    await new Promise((resolve) => allowed.close(resolve));
  });

  const base = () => `http://api.pinned.test:${counter.port}`;

  it('cannot be rebound: one lookup per request, the connection goes where it was checked', async () => {
    const resolve = tableResolver({ 'api.pinned.test': [['127.0.0.2'], ['127.0.0.1']] });
    const policy = { allow: cidrs('127.0.0.2/32'), resolve };
    const response = await guardedFetch(`${base()}/data`, {}, { policy, protocols: ['http:'] });
    expect(await response.json()).toEqual({ ok: true });
    // The connecting code never asked again (the pin answered), so the rebinding answer that
    // the resolver had ready was never used...
    expect(resolve.calls()).toBe(1);
    // ...and the next request, which does resolve again, is refused before connecting.
    await refusal(guardedFetch(`${base()}/data`, {}, { policy, protocols: ['http:'] }));
    expect(counter.connections()).toBe(0);
  });

  it('connects to the checked address even when the connecting code would resolve again', async () => {
    const target = await checkHost('api.pinned.test', {
      allow: cidrs('127.0.0.2/32'),
      resolve: tableResolver({ 'api.pinned.test': ['127.0.0.2'] }),
    });
    // The system resolver does not know api.pinned.test: only the pin can connect it.
    const agent = pinnedAgent(target);
    const { request } = await import('undici');
    const response = await request(`${base()}/pinned`, { dispatcher: agent });
    expect(response.statusCode).toBe(200);
    await response.body.text();
    // The agent refuses any other host name (a redirect elsewhere cannot reuse the pin).
    await expect(
      request(`http://other.test:${counter.port}/`, { dispatcher: agent }),
    ).rejects.toThrow();
    await agent.close();
    expect(counter.connections()).toBe(0);
  });

  it('https: TLS checks the name while the connection goes to the pinned address', async () => {
    const { createServer: createTls } = await import('node:https');
    const tls = selfSignedCertificate('hook.pinned.test', ['DNS:hook.pinned.test']);
    const ca = tls.cert;
    const receiver = createTls({ key: tls.key, cert: ca }, (_q, r) => {
      r.writeHead(204);
      r.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.2', resolve));
    const port = (receiver.address() as { port: number }).port;
    const guard = await startCountingListener(['127.0.0.1'], port);
    try {
      const policy = {
        allow: cidrs('127.0.0.2/32'),
        resolve: tableResolver({ 'hook.pinned.test': ['127.0.0.2'] }),
      };
      const url = `https://hook.pinned.test:${port}/deliveries`;
      const response = await guardedFetch(
        url,
        { method: 'POST', body: '{}' },
        {
          policy,
          protocols: ['https:'],
          ca,
        },
      );
      expect(response.status).toBe(204);
      // Without the authority the certificate is refused: TLS verification is on.
      await expect(guardedFetch(url, {}, { policy, protocols: ['https:'] })).rejects.toThrow();
      expect(guard.connections()).toBe(0);
    } finally {
      await guard.close();
      await new Promise((resolve) => receiver.close(resolve));
      tls.remove();
    }
  });

  it('refuses redirects to internal addresses, in any spelling, at every hop', async () => {
    const resolve = tableResolver({ 'api.pinned.test': ['127.0.0.2'], 'evil.test': ['127.0.0.1'] });
    const policy = { allow: cidrs('127.0.0.2/32'), resolve };
    const port = counter.port;
    for (const target of [
      `http://127.0.0.1:${port}/x`,
      `http://2130706433:${port}/x`,
      `http://0x7f.1:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://localhost:${port}/x`,
      `http://evil.test:${port}/x`,
      `http://169.254.169.254/latest/meta-data/`,
    ]) {
      const url = `${base()}/redirect/${encodeURIComponent(target)}`;
      const error = await refusal(
        guardedFetch(url, {}, { policy, protocols: ['http:'], maxRedirects: 3 }),
      );
      expect(error.message).toBe(REFUSED_MESSAGE);
      // Without following, the redirect is handed back as is.
      const response = await guardedFetch(url, {}, { policy, protocols: ['http:'] });
      expect(response.status).toBe(302);
    }
    // https only (webhooks): an http target is refused before connecting.
    await refusal(guardedFetch(`${base()}/data`, {}, { policy, protocols: ['https:'] }));
    expect(counter.connections()).toBe(0);
  });

  it('guards webhook-style fetches and provider API calls to user-given bases, errors generic', async () => {
    const port = counter.port;
    for (const { host } of INTERNAL_HOSTS) {
      const fetched = await guardedFetch(
        `https://${host}:${port}/hook`,
        { method: 'POST', body: '{}' },
        { policy: NOTHING, protocols: ['https:', 'http:'], maxRedirects: 2 },
      ).catch((e: unknown) => e);
      expect(fetched).toBeInstanceOf(OutboundRefusedError);
      const error = await providerRequest(
        { url: `http://${host}:${port}/api/v4/user` },
        { ...PROVIDER_HTTP_LIMITS, timeoutMs: 2000, guard: NOTHING },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).message).toBe(REFUSED_MESSAGE);
    }
    const policy = {
      allow: cidrs('127.0.0.2/32'),
      resolve: tableResolver({ 'api.pinned.test': ['127.0.0.2'] }),
    };
    const redirected = await providerRequest(
      { url: `${base()}/redirect/${encodeURIComponent(`http://127.0.0.1:${port}/`)}` },
      { ...PROVIDER_HTTP_LIMITS, timeoutMs: 5000, guard: policy },
    ).catch((e: unknown) => e as ProviderError);
    expect((redirected as ProviderError).failure).toBe('upstream');
    // A closed port on an allowed address: "could not be reached", no code, no port, no host.
    const closed = await providerRequest(
      { url: 'http://127.0.0.2:1/api' },
      { ...PROVIDER_HTTP_LIMITS, timeoutMs: 5000, guard: policy },
    ).catch((e: unknown) => e as ProviderError);
    expect((closed as ProviderError).message).toBe('the provider could not be reached');
    expect(counter.connections()).toBe(0);
  });
});

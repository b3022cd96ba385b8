import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRegistries, startFakeRegistries } from '../../test/support/fake-registries/index';
import { ecosystems } from './ecosystem-list';
import { createRegistryClients } from './registry-clients';
import {
  type PackageMetadata,
  type RegistryClient,
  RegistryError,
  RetryableRegistryError,
} from './registry-types';
import type { Ecosystem } from './types';

/**
 * The registry client contract (docs/design.md#ecosystems), looping over every registered ecosystem: each has
 * a client that normalises its registry's answer (served by the fake registries on 127.0.0.1),
 * revalidates with a conditional request, maps 404 to null, 429/5xx to a retryable error with
 * the Retry-After, refuses hostile bodies with a RegistryError, and is disabled without a base URL.
 */

interface Sample {
  name: string;
  /** A new release, newer than all the seeded ones. */
  next: string;
  /** The main (conditional) document of that package on the fake server. */
  path: string;
  unknown: string;
}

const SAMPLES: Record<Ecosystem, Sample> = {
  npm: {
    name: '@acme/widget',
    next: '9.9.9',
    path: '/npm/@acme%2Fwidget',
    unknown: 'no-such-package-xyz',
  },
  PyPI: {
    name: 'Requests',
    next: '9.9.9',
    path: '/pypi-api/pypi/requests/json',
    unknown: 'no-such-package',
  },
  Maven: {
    name: 'org.example:core-lib',
    next: '9.9.9',
    path: '/maven2/org/example/core-lib/maven-metadata.xml',
    unknown: 'org.example:missing',
  },
  Go: {
    name: 'example.org/Acme/Widget',
    next: 'v1.9.9',
    path: '/goproxy/example.org/!acme/!widget/@v/list',
    unknown: 'example.org/none/here',
  },
  Cargo: {
    name: 'fastrand-x',
    next: '9.9.9',
    path: '/crates/api/v1/crates/fastrand-x',
    unknown: 'no-such-crate',
  },
  RubyGems: {
    name: 'rack-x',
    next: '9.9.9',
    path: '/rubygems/api/v1/versions/rack-x.json',
    unknown: 'no-such-gem',
  },
  Composer: {
    name: 'acme/http-client',
    next: 'v9.9.9',
    path: '/packagist/p2/acme/http-client.json',
    unknown: 'acme/none',
  },
  NuGet: {
    name: 'Acme.Json',
    next: '99.0.0',
    path: '/nuget/v3/registration5-gz-semver2/acme.json/index.json',
    unknown: 'No.Such.Package',
  },
  Docker: {
    name: 'node',
    next: '99.9.9',
    path: '/oci/v2/library/node/tags/list',
    unknown: 'acme/none',
  },
};

const HOSTILE_BODIES = [
  'not json at all <html>',
  '[]',
  'null',
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
  `${'['.repeat(50_000)}`,
  '{"versions": "nope", "releases": 7, "packages": [], "items": {}, "tags": {"a": 1}}',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><metadata>&e;</metadata>',
  '\u0000\u0001\ufffd',
];

let fake: FakeRegistries;
let clients: Record<Ecosystem, RegistryClient>;

beforeAll(async () => {
  fake = await startFakeRegistries();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.clearFaults();
  // A fresh client set (and response cache) per test: no answer leaks between tests.
  clients = createRegistryClients(fake.settings());
});

function expectNormalised(id: Ecosystem, metadata: PackageMetadata | null): PackageMetadata {
  const module = ecosystems.find((e) => e.id === id)!;
  expect(metadata).not.toBeNull();
  const m = metadata!;
  expect(m.ecosystem).toBe(id);
  expect(m.name).toBe(module.normaliseName(m.name));
  expect(m.purl.startsWith(`pkg:${module.purlType}/`)).toBe(true);
  expect(m.purl).not.toContain('@');
  expect(m.versions.length).toBeGreaterThan(1);
  const versions = m.versions.map((v) => v.version);
  expect(new Set(versions).size).toBe(versions.length);
  expect([...versions].sort(module.versioning.compare)).toEqual(versions);
  for (const v of m.versions) {
    expect(module.versioning.isValid(v.version), v.version).toBe(true);
    if (v.publishedAtUtc !== null) expect(v.publishedAtUtc).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(typeof v.yanked).toBe('boolean');
    expect(typeof v.prerelease).toBe('boolean');
  }
  expect(m.versions.some((v) => v.publishedAtUtc !== null)).toBe(true);
  expect(m.versions.some((v) => v.prerelease)).toBe(true);
  const stable = m.versions.find((v) => v.version === m.latestStable);
  expect(stable, 'latestStable is a listed version').toBeDefined();
  expect(stable!.prerelease || stable!.yanked).toBe(false);
  expect(Date.parse(m.fetchedAtUtc)).not.toBeNaN();
  expect(m.notModified).toBe(false);
  expect(m.etag ?? m.lastModified).not.toBeNull();
  // Plain JSON: it survives a round trip unchanged (callers store it as jsonb).
  expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  return m;
}

describe('registry clients', () => {
  it('every registered ecosystem has a registry client factory', () => {
    expect(ecosystems).toHaveLength(9);
    for (const module of ecosystems) {
      expect(typeof module.registry, module.id).toBe('function');
      expect(clients[module.id].ecosystem).toBe(module.id);
      expect(clients[module.id].status).toEqual({
        state: 'enabled',
        baseUrl: fake.baseUrls[module.id],
      });
    }
  });

  it('a client without a base URL is disabled with a reason, and refuses to fetch', async () => {
    const settings = fake.settings();
    for (const module of ecosystems) settings.baseUrls[module.id] = null;
    const disabled = createRegistryClients(settings);
    for (const module of ecosystems) {
      const client = disabled[module.id];
      expect(client.status.state).toBe('disabled');
      if (client.status.state === 'disabled') expect(client.status.reason).toMatch(/_URL/);
      await expect(client.fetchPackage(SAMPLES[module.id].name)).rejects.toBeInstanceOf(
        RegistryError,
      );
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe.each(ecosystems.map((e) => [e.id] as const))('%s registry client', (id) => {
  const sample = SAMPLES[id];

  it('normalises the registry answer', async () => {
    expectNormalised(id, await clients[id].fetchPackage(sample.name));
  });

  it('revalidates with a conditional request: 304 returns the previous answer', async () => {
    const first = await clients[id].fetchPackage(sample.name);
    const before = fake.requests.length;
    const fresh = createRegistryClients(fake.settings());
    const second = await fresh[id].fetchPackage(sample.name, { previous: first });
    expect(second?.notModified).toBe(true);
    expect({ ...second, fetchedAtUtc: '', notModified: false }).toEqual({
      ...first,
      fetchedAtUtc: '',
    });
    const conditional = fake.requests
      .slice(before)
      .find((r) => r.path.split('?')[0] === sample.path);
    expect(conditional?.headers['if-none-match'] ?? conditional?.headers['if-modified-since']).toBe(
      first?.etag ?? first?.lastModified,
    );
  });

  it('fetches again in full when a release was added since the previous answer', async () => {
    const first = await clients[id].fetchPackage(sample.name);
    const key = sample.name === 'node' ? 'library/node' : sample.name;
    const pkg = fake.getPackage(id, key)!;
    const release = { version: sample.next, publishedAt: '2025-01-02T03:04:05.000Z' };
    fake.addPackage(id, { ...pkg, versions: [...pkg.versions, release] });
    try {
      const second = await createRegistryClients(fake.settings())[id].fetchPackage(sample.name, {
        previous: first,
        versionsOfInterest: [sample.next],
      });
      expect(second?.notModified).toBe(false);
      expect(second?.versions.length).toBe(first!.versions.length + 1);
      expect(second?.latestStable).toBe(sample.next);
      const added = second?.versions.find((v) => v.version === sample.next);
      expect(added?.publishedAtUtc).toBe('2025-01-02T03:04:05.000Z');
    } finally {
      fake.addPackage(id, pkg);
    }
  });

  it('answers null for a package the registry does not know', async () => {
    expect(await clients[id].fetchPackage(sample.unknown)).toBeNull();
  });

  it('turns 429 into a retryable error carrying Retry-After', async () => {
    fake.inject({ path: sample.path, status: 429, headers: { 'retry-after': '17' } });
    const error = await clients[id].fetchPackage(sample.name).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableRegistryError);
    expect((error as RetryableRegistryError).retryAfterSeconds).toBe(17);
    expect((error as RetryableRegistryError).status).toBe(429);
    expect((error as RetryableRegistryError).ecosystem).toBe(id);
  });

  it('turns 5xx into a retryable error with a default delay', async () => {
    fake.inject({ path: sample.path, status: 503, body: '<html>upstream down</html>' });
    const error = await clients[id].fetchPackage(sample.name).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableRegistryError);
    expect((error as RetryableRegistryError).retryAfterSeconds).toBeGreaterThan(0);
    expect((error as RetryableRegistryError).status).toBe(503);
  });

  it('never crashes on hostile bodies: a RegistryError, or an answer that is still well-formed', async () => {
    for (const body of HOSTILE_BODIES) {
      fake.inject({ path: sample.path, status: 200, body });
      const fresh = createRegistryClients(fake.settings())[id];
      const outcome = await fresh.fetchPackage(sample.name).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      if ('error' in outcome) {
        expect(outcome.error, JSON.stringify(body.slice(0, 40))).toBeInstanceOf(RegistryError);
        expect(outcome.error).not.toBeInstanceOf(RetryableRegistryError);
      } else if (outcome.value !== null) {
        expect(Array.isArray(outcome.value.versions)).toBe(true);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});

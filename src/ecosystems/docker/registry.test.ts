import { describe, expect, it } from 'vitest';
import { startFakeRegistries } from '../../../test/support/fake-registries/index';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';
import { RegistryError } from '../registry-types';
import { nextLink, parseBearerChallenge } from './registry';

const ctx = useFakeRegistries();

describe('OCI registry client', () => {
  it('gets an anonymous pull token, lists tags and dates images from their config', async () => {
    const m = (await fakeClient(ctx.fake, 'Docker').fetchPackage('library/node'))!;
    const paths = requestedPaths(ctx.fake);
    expect(paths[0]).toBe('/oci/v2/');
    expect(paths[1]).toBe(
      '/oci/token?service=fake-registry&scope=repository%3Alibrary%2Fnode%3Apull',
    );
    expect(paths[2]).toBe('/oci/v2/library/node/tags/list?n=1000');
    const tagRequest = ctx.fake.requests[2]!;
    expect(tagRequest.headers.authorization).toMatch(/^Bearer fake-token-/);
    expect(m.name).toBe('node');
    expect(m.purl).toBe('pkg:docker/node');
    // `latest` and `lts` are no versions.
    expect(m.versions.map((v) => v.version)).toEqual([
      '18',
      '18-alpine',
      '20',
      '20-alpine',
      '20.11.1',
      '22.0.0rc1',
    ]);
    expect(m.versions.find((v) => v.version === '20.11.1')).toMatchObject({
      publishedAtUtc: '2024-02-14T00:00:00.000Z',
      licence: 'MIT',
    });
    expect(m.versions.find((v) => v.version === '22.0.0rc1')!.prerelease).toBe(true);
    // Variants are separate lines: the plain line decides.
    expect(m.latestStable).toBe('20.11.1');
    expect(m.repositoryUrl).toBe('https://git.example.org/nodejs/docker-node');
  });

  it('reuses the token and follows Link paging across tag pages', async () => {
    const client = fakeClient(ctx.fake, 'Docker');
    await client.fetchPackage('node');
    const m = (await client.fetchPackage('acme/app'))!;
    const paths = requestedPaths(ctx.fake);
    expect(paths.filter((p) => p === '/oci/v2/')).toHaveLength(1);
    expect(paths.filter((p) => p.startsWith('/oci/v2/acme/app/tags/list'))).toHaveLength(3);
    expect(m.versions).toHaveLength(230);
    const dated = m.versions.filter((v) => v.publishedAtUtc !== null);
    expect(dated).toHaveLength(10);
    expect(m.notes[0]).toBe('image dates fetched for 10 of 230 version tags');
  });

  it('answers null for an unknown repository', async () => {
    expect(await fakeClient(ctx.fake, 'Docker').fetchPackage('acme/none')).toBeNull();
  });

  it('refuses images on another registry host', async () => {
    await expect(
      fakeClient(ctx.fake, 'Docker').fetchPackage('other.example.org/team/app'),
    ).rejects.toBeInstanceOf(RegistryError);
  });

  it('works with registries that need no token', async () => {
    const open = await startFakeRegistries({ ociAuth: false });
    try {
      const m = (await fakeClient(open, 'Docker').fetchPackage('node'))!;
      expect(m.versions).toHaveLength(6);
      expect(open.requests.some((r) => r.path.startsWith('/oci/token'))).toBe(false);
    } finally {
      await open.close();
    }
  });

  it('parses bearer challenges and next links defensively', () => {
    expect(
      parseBearerChallenge('Bearer realm="https://auth.example.org/token",service="reg",scope="x"'),
    ).toEqual({
      realm: 'https://auth.example.org/token',
      service: 'reg',
    });
    expect(parseBearerChallenge('Basic realm="x"')).toBeNull();
    expect(parseBearerChallenge('Bearer realm="file:///etc/passwd"')).toBeNull();
    expect(parseBearerChallenge(null)).toBeNull();
    const current = 'http://127.0.0.1:5000/v2/a/tags/list?n=2';
    expect(nextLink('</v2/a/tags/list?last=b&n=2>; rel="next"', current)).toBe(
      'http://127.0.0.1:5000/v2/a/tags/list?last=b&n=2',
    );
    expect(nextLink('<http://127.0.0.9/v2/a/tags/list?last=b>; rel="next"', current)).toBeNull();
    expect(nextLink('garbage', current)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';

const ctx = useFakeRegistries();

describe('Maven repository client', () => {
  it('lists versions from maven-metadata.xml, dates them by the POM Last-Modified, inherits the licence', async () => {
    const m = (await fakeClient(ctx.fake, 'Maven').fetchPackage('org.example:core-lib'))!;
    expect(requestedPaths(ctx.fake)[0]).toBe('/maven2/org/example/core-lib/maven-metadata.xml');
    expect(requestedPaths(ctx.fake)).toContain('/maven2/org/example/core-lib/2.0/core-lib-2.0.pom');
    // The POM has no <licenses>: the parent's is used.
    expect(requestedPaths(ctx.fake)).toContain(
      '/maven2/org/example/acme-parent/7/acme-parent-7.pom',
    );
    expect(m.purl).toBe('pkg:maven/org.example/core-lib');
    expect(m.versions.map((v) => v.version)).toEqual([
      '1.0',
      '1.1',
      '2.0-beta-1',
      '2.0',
      '2.1.0-RC1',
    ]);
    expect(m.versions.map((v) => v.prerelease)).toEqual([false, false, true, false, true]);
    expect(m.versions[0]!.publishedAtUtc).toBe('2021-03-01T12:00:00.000Z');
    expect(m.latest).toBe('2.0');
    expect(m.latestStable).toBe('2.0');
    expect(m.licence).toBe('The Apache Software License, Version 2.0');
    expect(m.maintainers).toEqual(['jdoe', 'rroe']);
    expect(m.repositoryUrl).toBe('https://git.example.org/acme/core-lib');
    expect(m.lastModified).toBe('Sat, 01 Apr 2023 12:00:00 GMT');
  });

  it('reports a relocation as deprecation with its successor', async () => {
    const m = (await fakeClient(ctx.fake, 'Maven').fetchPackage('org.example:old-lib'))!;
    expect(m.deprecated).toBe('old-lib moved to org.example.next:new-lib');
    expect(m.successor).toBe('org.example.next:new-lib');
    expect(m.licence).toBe('MIT');
  });

  it('limits POM requests to the newest versions plus the versions of interest', async () => {
    const client = fakeClient(ctx.fake, 'Maven', { maxVersionDetails: 1 });
    const m = (await client.fetchPackage('org.example:core-lib', { versionsOfInterest: ['1.0'] }))!;
    const dated = m.versions.filter((v) => v.publishedAtUtc !== null).map((v) => v.version);
    expect(dated.sort()).toEqual(['1.0', '2.0', '2.1.0-RC1']);
    expect(m.notes.join(' ')).toMatch(/POM details fetched for 3 of 5 versions/);
  });

  it('refuses coordinates that would escape the repository layout, without a request', async () => {
    const client = fakeClient(ctx.fake, 'Maven');
    for (const name of ['org..x:a', 'org.example:../../etc', 'no-colon', 'a:b:c']) {
      expect(await client.fetchPackage(name)).toBeNull();
    }
    expect(ctx.fake.requests).toHaveLength(0);
  });
});

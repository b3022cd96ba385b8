import { describe, expect, it } from 'vitest';
import {
  fakeClient,
  requestedPaths,
  useFakeRegistries,
} from '../../../test/support/fake-registries/vitest';

const ctx = useFakeRegistries();

describe('PyPI registry client', () => {
  it('reads releases: earliest upload time, yanks with reasons, pre-releases', async () => {
    const m = (await fakeClient(ctx.fake, 'PyPI').fetchPackage('Requests'))!;
    expect(requestedPaths(ctx.fake)).toEqual(['/pypi-api/pypi/requests/json']);
    expect(m.name).toBe('requests');
    expect(m.purl).toBe('pkg:pypi/requests');
    expect(m.versions.map((v) => v.version)).toEqual(['2.31.0', '2.32.0', '2.32.3', '3.0.0b1']);
    const yanked = m.versions.find((v) => v.version === '2.32.0')!;
    expect(yanked.yanked).toBe(true);
    expect(yanked.yankedReason).toBe('Yanked due to conflicts with CVE-2024-35195 mitigation');
    // The sdist was uploaded first; the wheel two seconds later.
    expect(m.versions[0]!.publishedAtUtc).toBe('2023-05-22T15:12:42.000Z');
    expect(m.versions.at(-1)!.prerelease).toBe(true);
    expect(m.latestStable).toBe('2.32.3');
    expect(m.licence).toBe('Apache-2.0');
    expect(m.repositoryUrl).toBe('https://git.example.org/psf/requests');
    expect(m.homepage).toBe('https://requests.example.org');
    expect(m.deprecated).toBeNull();
  });

  it('reports the Inactive development status as deprecation', async () => {
    const m = (await fakeClient(ctx.fake, 'PyPI').fetchPackage('old.package'))!;
    expect(m.name).toBe('old-package');
    expect(m.deprecated).toBe('Development Status :: 7 - Inactive');
  });

  it('reports a PEP 792 archived status with its reason', async () => {
    ctx.fake.inject({
      path: '/pypi-api/pypi/archived/json',
      body: JSON.stringify({
        info: { name: 'archived', version: '1.0' },
        'project-status': { status: 'archived', reason: 'superseded by newthing' },
        releases: { '1.0': [{ upload_time_iso_8601: '2020-01-01T00:00:00Z', yanked: false }] },
      }),
    });
    const m = (await fakeClient(ctx.fake, 'PyPI').fetchPackage('archived'))!;
    expect(m.deprecated).toBe('superseded by newthing');
  });

  it('prefers a PEP 639 licence expression and falls back to classifiers for pasted licence texts', async () => {
    const body = (info: Record<string, unknown>) =>
      JSON.stringify({
        info: { name: 'lic', version: '1.0', ...info },
        releases: {
          '1.0': [{ upload_time_iso_8601: '2024-01-01T00:00:00.000000Z', yanked: false }],
          '1.1': [],
        },
      });
    ctx.fake.inject({
      path: '/pypi-api/pypi/lic/json',
      body: body({ license_expression: 'MIT OR Apache-2.0', license: 'whatever' }),
    });
    expect((await fakeClient(ctx.fake, 'PyPI').fetchPackage('lic'))!.licence).toBe(
      'MIT OR Apache-2.0',
    );
    ctx.fake.inject({
      path: '/pypi-api/pypi/lic/json',
      body: body({
        license: 'Copyright (c) 2024\n\nPermission is hereby granted...',
        classifiers: ['License :: OSI Approved :: MIT License'],
      }),
    });
    const m = (await fakeClient(ctx.fake, 'PyPI').fetchPackage('lic'))!;
    expect(m.licence).toBe('MIT License');
    // A release without files has no time and is not yanked.
    expect(m.versions.find((v) => v.version === '1.1')).toMatchObject({
      publishedAtUtc: null,
      yanked: false,
    });
  });
});

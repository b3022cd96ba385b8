import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cycloneDxValidator, schemaErrors } from '../../test/support/sbom-schemas';
import { readSbom } from './read';
import { toDependencies } from './to-dependencies';
import type { SbomGraph } from './types';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8'));

type Row = [string, string, string | null, string, boolean, string[], string];

/** (ecosystem, name, version, resolution, direct, parents, scope), sorted. */
function rowsOf(document: unknown): { rows: Row[]; warnings: string[]; graph: SbomGraph } {
  const read = readSbom(document);
  if (!read.ok) throw new Error(`read failed: ${JSON.stringify(read.errors)}`);
  const mapped = toDependencies(read.graph);
  const rows = mapped.files.flatMap((file) =>
    file.dependencies.map(
      (d): Row => [
        file.ecosystem,
        d.name,
        d.version,
        d.resolution,
        d.direct,
        [...d.parents].sort(),
        d.scope,
      ],
    ),
  );
  rows.sort((a, b) => {
    const [x, y] = [`${a[0]}/${a[1]}`, `${b[0]}/${b[1]}`];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return { rows, warnings: [...read.warnings, ...mapped.warnings], graph: read.graph };
}

describe('fixtures are what the tools write', () => {
  test.each([
    ['syft-cyclonedx-1.4.json', '1.4'],
    ['cdxgen-cyclonedx-1.5.json', '1.5'],
    ['cdxgen-cyclonedx-1.6.json', '1.6'],
  ] as const)('%s is valid against the official CycloneDX %s schema', (name, version) => {
    const validate = cycloneDxValidator(version);
    expect(validate(fixture(name)), schemaErrors(validate).join('\n')).toBe(true);
  });
});

describe('readSbom + toDependencies', () => {
  test('syft CycloneDX 1.4 (flat list, no dependency graph): every package is direct', () => {
    const { rows, warnings, graph } = rowsOf(fixture('syft-cyclonedx-1.4.json'));
    expect(graph).toMatchObject({ format: 'cyclonedx', specVersion: '1.4', tool: 'syft 0.83.0' });
    expect(rows).toEqual([
      ['Go', 'github.com/spf13/cobra', 'v1.7.0', 'resolved', true, [], 'runtime'],
      ['PyPI', 'flask', '2.3.2', 'resolved', true, [], 'runtime'],
      ['PyPI', 'jinja2', '3.1.2', 'resolved', true, [], 'runtime'],
      ['npm', '@types/node', '20.3.1', 'resolved', true, [], 'runtime'],
      ['npm', 'express', '4.18.2', 'resolved', true, [], 'runtime'],
    ]);
    expect(warnings).toEqual([
      '1 components without a purl were skipped: /usr/share/doc/libssl3/copyright',
      '1 components of package types without a supported ecosystem were skipped: deb (1)',
    ]);
  });

  test('cdxgen CycloneDX 1.5: direct from the root, parents from dependsOn, cycles, scopes', () => {
    const { rows, warnings } = rowsOf(fixture('cdxgen-cyclonedx-1.5.json'));
    expect(rows).toEqual([
      [
        'npm',
        '@babel/core',
        '7.23.9',
        'resolved',
        true,
        ['@babel/helper-compilation-targets'],
        'optional',
      ],
      [
        'npm',
        '@babel/helper-compilation-targets',
        '7.23.6',
        'resolved',
        false,
        ['@babel/core'],
        'optional',
      ],
      ['npm', 'body-parser', '1.20.1', 'resolved', false, ['express'], 'runtime'],
      ['npm', 'debug', '2.6.9', 'resolved', false, ['body-parser', 'express', 'ms'], 'runtime'],
      ['npm', 'express', '4.18.2', 'resolved', true, [], 'runtime'],
      // purl-spec: npm names are lower case in a purl.
      ['npm', 'jsonstream', '1.3.5', 'resolved', true, [], 'runtime'],
      ['npm', 'ms', '2.0.0', 'resolved', false, ['debug'], 'runtime'],
    ]);
    expect(warnings).toEqual([]);
  });

  test('cdxgen CycloneDX 1.6: nested components, Maven/Go/Docker, modules of the subject are no dependencies', () => {
    const { rows, warnings } = rowsOf(fixture('cdxgen-cyclonedx-1.6.json'));
    expect(rows).toEqual([
      ['Docker', 'eclipse-temurin', '21-jre', 'resolved', false, [], 'runtime'],
      ['Go', 'github.com/google/uuid', 'v1.6.0', 'resolved', false, [], 'runtime'],
      [
        'Maven',
        'com.fasterxml.jackson.core:jackson-annotations',
        '2.17.2',
        'resolved',
        false,
        ['com.fasterxml.jackson.core:jackson-databind'],
        'runtime',
      ],
      [
        'Maven',
        'com.fasterxml.jackson.core:jackson-databind',
        '2.17.2',
        'resolved',
        true,
        [],
        'runtime',
      ],
      [
        'Maven',
        'org.junit.jupiter:junit-jupiter-api',
        '5.10.3',
        'resolved',
        true,
        [],
        'development',
      ],
    ]);
    expect(warnings).toEqual([
      '1 components of package types without a supported ecosystem were skipped: github (1)',
    ]);
  });

  test('syft SPDX 2.3: CONTAINS is no dependency; DEPENDENCY_OF gives parents; top-level packages are direct', () => {
    const { rows, warnings, graph } = rowsOf(fixture('syft-spdx-2.3.json'));
    expect(graph).toMatchObject({ format: 'spdx', specVersion: '2.3', tool: 'syft-1.4.1' });
    expect(rows).toEqual([
      ['Cargo', 'serde', '1.0.197', 'resolved', true, [], 'runtime'],
      ['PyPI', 'charset-normalizer', '3.3.2', 'resolved', false, ['requests'], 'runtime'],
      ['PyPI', 'requests', '2.31.0', 'resolved', true, [], 'runtime'],
      ['PyPI', 'ruamel-yaml', '0.18.6', 'resolved', true, [], 'runtime'],
      ['PyPI', 'urllib3', '2.2.1', 'resolved', false, ['requests'], 'runtime'],
    ]);
    expect(warnings).toEqual([
      '1 components of package types without a supported ecosystem were skipped: apk (1)',
    ]);
  });

  test("GitHub's dependency-graph SPDX (the API's {sbom} wrapper): ranges stay declared", () => {
    const { rows, warnings } = rowsOf(fixture('github-dependency-graph-spdx-2.3.json'));
    expect(rows).toEqual([
      ['Composer', 'monolog/monolog', '3.5.0', 'resolved', true, [], 'runtime'],
      ['NuGet', 'newtonsoft.json', '13.0.3', 'resolved', true, [], 'runtime'],
      ['RubyGems', 'rails', '7.1.3', 'resolved', true, [], 'runtime'],
      ['npm', 'lodash', '^4.17.0', 'declared', true, [], 'runtime'],
      ['npm', 'loose-envify', '1.4.0', 'resolved', false, ['react'], 'runtime'],
      ['npm', 'react', '18.3.1', 'resolved', true, [], 'runtime'],
    ]);
    // The described repository (pkg:github) is the subject, not a skipped component.
    expect(warnings).toEqual([
      '1 components of package types without a supported ecosystem were skipped: githubactions (1)',
    ]);
  });

  test('purls are rebuilt from the normalised parts, with the version only when resolved', () => {
    const read = readSbom(fixture('github-dependency-graph-spdx-2.3.json'));
    if (!read.ok) throw new Error('read failed');
    const purls = toDependencies(read.graph)
      .files.flatMap((file) => file.dependencies.map((d) => d.purl))
      .sort();
    expect(purls).toEqual([
      'pkg:composer/monolog/monolog@3.5.0',
      'pkg:gem/rails@7.1.3',
      'pkg:npm/lodash',
      'pkg:npm/loose-envify@1.4.0',
      'pkg:npm/react@18.3.1',
      'pkg:nuget/newtonsoft.json@13.0.3',
    ]);
  });
});

describe('what is refused', () => {
  test.each([
    ['an array', [], 400, '$'],
    ['a string', 'bom', 400, '$'],
    ['an object that is no SBOM', { hello: 'world' }, 400, 'bomFormat'],
    ['another bomFormat', { bomFormat: 'SWID', specVersion: '1.5' }, 400, 'bomFormat'],
    ['CycloneDX 1.2', { bomFormat: 'CycloneDX', specVersion: '1.2' }, 400, 'specVersion'],
    ['CycloneDX without specVersion', { bomFormat: 'CycloneDX' }, 400, 'specVersion'],
    ['SPDX 2.1', { spdxVersion: 'SPDX-2.1' }, 400, 'spdxVersion'],
    ['SPDX 3 JSON-LD', { spdxVersion: 3 }, 400, 'spdxVersion'],
    [
      'components that are not an array',
      { bomFormat: 'CycloneDX', specVersion: '1.5', components: { a: 1 } },
      422,
      'components',
    ],
    [
      'a component without a name',
      {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        components: [{ name: 'a' }, { type: 'library' }],
      },
      422,
      'components[1].name',
    ],
    [
      'a purl that is not a string',
      { bomFormat: 'CycloneDX', specVersion: '1.6', components: [{ name: 'a', purl: 5 }] },
      422,
      'components[0].purl',
    ],
    [
      'a nested component that is not an object',
      {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        components: [{ name: 'a', components: [{ name: 'b' }, 7] }],
      },
      422,
      'components[0].components[1]',
    ],
    [
      'a dependency without ref',
      { bomFormat: 'CycloneDX', specVersion: '1.4', dependencies: [{ dependsOn: [] }] },
      422,
      'dependencies[0].ref',
    ],
    [
      'dependsOn with a number',
      { bomFormat: 'CycloneDX', specVersion: '1.4', dependencies: [{ ref: 'a', dependsOn: [1] }] },
      422,
      'dependencies[0].dependsOn[0]',
    ],
    [
      'an SPDX package without SPDXID',
      { spdxVersion: 'SPDX-2.3', packages: [{ name: 'x' }] },
      422,
      'packages[0].SPDXID',
    ],
    [
      'an SPDX relationship without a type',
      {
        spdxVersion: 'SPDX-2.3',
        relationships: [{ spdxElementId: 'SPDXRef-DOCUMENT', relatedSpdxElement: 'SPDXRef-a' }],
      },
      422,
      'relationships[0].relationshipType',
    ],
    [
      'externalRefs that are not an array',
      {
        spdxVersion: 'SPDX-2.3',
        packages: [{ SPDXID: 'SPDXRef-a', name: 'a', externalRefs: 'x' }],
      },
      422,
      'packages[0].externalRefs',
    ],
  ])('%s → %i with errors keyed by path', (_label, document, status, key) => {
    const read = readSbom(document);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.status).toBe(status);
    expect(read.errors).toHaveProperty([key]);
  });

  test('many bad components give a bounded error list', () => {
    const components = Array.from({ length: 10_000 }, () => ({ type: 'library' }));
    const read = readSbom({ bomFormat: 'CycloneDX', specVersion: '1.5', components });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(Object.keys(read.errors).length).toBe(51);
    expect(read.errors.$).toEqual(['9950 more errors were not listed']);
  });
});

describe('hostile documents', () => {
  const limits = { maxComponents: 100, maxEdges: 1000, maxNesting: 8 };

  test('more components than the limit is refused as a whole', () => {
    const components = Array.from({ length: 101 }, (_, i) => ({
      name: `p${i}`,
      purl: `pkg:npm/p${i}@1.0.0`,
    }));
    const read = readSbom({ bomFormat: 'CycloneDX', specVersion: '1.6', components }, limits);
    expect(read).toMatchObject({
      ok: false,
      status: 422,
      errors: { components: [expect.stringMatching(/more than 100/)] },
    });
    const spdx = readSbom(
      {
        spdxVersion: 'SPDX-2.3',
        packages: components.map((c, i) => ({ SPDXID: `SPDXRef-${i}`, name: c.name })),
      },
      limits,
    );
    expect(spdx).toMatchObject({
      ok: false,
      status: 422,
      errors: { packages: [expect.any(String)] },
    });
  });

  test('components nested deeper than the limit are refused without recursion', () => {
    let component: Record<string, unknown> = { name: 'leaf' };
    for (let i = 0; i < 100_000; i++) component = { name: `n${i}`, components: [component] };
    const read = readSbom(
      { bomFormat: 'CycloneDX', specVersion: '1.6', components: [component] },
      limits,
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.status).toBe(422);
    expect(Object.values(read.errors).flat().join()).toMatch(/deeper than 8 levels/);
  });

  test('more edges than the limit is refused', () => {
    const components = Array.from({ length: 50 }, (_, i) => ({
      name: `p${i}`,
      'bom-ref': `r${i}`,
    }));
    const dependencies = components.map((c) => ({
      ref: c['bom-ref'],
      dependsOn: components.map((d) => d['bom-ref']),
    }));
    const read = readSbom(
      { bomFormat: 'CycloneDX', specVersion: '1.5', components, dependencies },
      limits,
    );
    expect(read).toMatchObject({
      ok: false,
      status: 422,
      errors: { dependencies: [expect.any(String)] },
    });
  });

  test('a dependency cycle through the root terminates and keeps every edge as a parent', () => {
    const read = readSbom({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      metadata: { component: { 'bom-ref': 'root', name: 'app', type: 'application' } },
      components: [
        { name: 'a', 'bom-ref': 'a', purl: 'pkg:npm/a@1.0.0' },
        { name: 'b', 'bom-ref': 'b', purl: 'pkg:npm/b@1.0.0' },
      ],
      dependencies: [
        { ref: 'root', dependsOn: ['a'] },
        { ref: 'a', dependsOn: ['b', 'a'] },
        { ref: 'b', dependsOn: ['a', 'root'] },
      ],
    });
    if (!read.ok) throw new Error('read failed');
    const deps = toDependencies(read.graph).files[0]!.dependencies;
    expect(deps.map((d) => [d.name, d.direct, d.parents])).toEqual([
      ['a', true, ['b']],
      ['b', false, ['a']],
    ]);
  });

  test('__proto__ and constructor keys are data, never inherited fields', () => {
    const document = JSON.parse(
      '{"bomFormat":"CycloneDX","specVersion":"1.6","components":[{"__proto__":{"name":"evil","purl":"pkg:npm/evil@1"},"constructor":{"name":"x"}}]}',
    );
    const read = readSbom(document);
    expect(read).toMatchObject({
      ok: false,
      status: 422,
      errors: { 'components[0].name': ['is required'] },
    });
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  test('overlong strings are errors, duplicate refs and unknown edges are warnings', () => {
    const long = readSbom({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [{ name: 'x'.repeat(5000) }],
    });
    expect(long).toMatchObject({
      ok: false,
      status: 422,
      errors: { 'components[0].name': [expect.any(String)] },
    });
    const lenient = readSbom({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [
        { name: 'a', 'bom-ref': 'dup', purl: 'pkg:npm/a@1.0.0' },
        { name: 'b', 'bom-ref': 'dup', purl: 'pkg:npm/b@1.0.0' },
      ],
      dependencies: [{ ref: 'dup', dependsOn: ['missing'] }],
    });
    expect(lenient.ok).toBe(true);
    if (!lenient.ok) return;
    expect(lenient.graph.nodes.map((n) => n.name)).toEqual(['a']);
    expect(lenient.warnings).toEqual([
      'components[1]: bom-ref "dup" repeats components[0]; the first one is kept',
      '1 dependency edges name a bom-ref no component has; ignored',
    ]);
  });

  test('invalid purls are skipped and reported, never fatal', () => {
    const read = readSbom({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [
        { name: 'a', purl: 'not a purl' },
        { name: 'b', purl: 'pkg:npm/b@2.0.0' },
      ],
    });
    if (!read.ok) throw new Error('read failed');
    const mapped = toDependencies(read.graph);
    expect(mapped.files.flatMap((f) => f.dependencies.map((d) => d.name))).toEqual(['b']);
    expect(mapped.warnings[0]).toMatch(
      /^1 components with an invalid purl were skipped: components\[0\]\.purl/,
    );
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { cycloneDxValidator, schemaErrors } from '../../test/support/sbom-schemas';
import { sharedDataDir } from '../../test/support/shared-data';
import { writeCycloneDx16 } from './cyclonedx-write';
import type { ExportDependency, ExportSubject } from './export-model';
import { readSbom } from './read';
import { writeSpdx23 } from './spdx-write';
import { toDependencies } from './to-dependencies';

const subject: ExportSubject = {
  exportId: '01936f4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f',
  repositoryId: '01936f4e-0000-7000-8000-000000000001',
  repositoryName: 'octo-org/storefront',
  repositoryUrl: 'https://scm.example.test/octo-org/storefront',
  createdAt: new Date('2026-03-04T05:06:07.891Z'),
  toolName: 'driftwatch',
  toolVersion: '0.1.0',
};

const dep = (
  partial: Partial<ExportDependency> & Pick<ExportDependency, 'ecosystem' | 'name' | 'purl'>,
): ExportDependency => ({
  version: null,
  direct: false,
  parents: [],
  scope: 'runtime',
  licence: null,
  ...partial,
});

/** What a real scan stores: every ecosystem, scopes, a range, an unpinned image, duplicates. */
const dependencies: ExportDependency[] = [
  dep({
    ecosystem: 'npm',
    name: 'express',
    version: '4.18.2',
    purl: 'pkg:npm/express@4.18.2',
    direct: true,
    licence: 'MIT',
  }),
  dep({
    ecosystem: 'npm',
    name: 'debug',
    version: '2.6.9',
    purl: 'pkg:npm/debug@2.6.9',
    parents: ['express', 'body-parser'],
  }),
  dep({
    ecosystem: 'npm',
    name: 'body-parser',
    version: '1.20.1',
    purl: 'pkg:npm/body-parser@1.20.1',
    parents: ['express'],
  }),
  dep({
    ecosystem: 'npm',
    name: '@babel/core',
    version: '7.23.9',
    purl: 'pkg:npm/%40babel/core@7.23.9',
    direct: true,
    scope: 'development',
  }),
  // The same package found twice (two lockfiles): one component.
  dep({
    ecosystem: 'npm',
    name: 'express',
    version: '4.18.2',
    purl: 'pkg:npm/express@4.18.2',
    direct: false,
    parents: ['api-gateway'],
  }),
  dep({
    ecosystem: 'npm',
    name: 'lodash',
    version: '^4.17.0',
    purl: 'pkg:npm/lodash',
    direct: true,
  }),
  dep({
    ecosystem: 'PyPI',
    name: 'requests',
    version: '2.31.0',
    purl: 'pkg:pypi/requests@2.31.0',
    direct: true,
    licence: 'Apache-2.0 OR (MIT AND BSD-3-Clause)',
  }),
  dep({
    ecosystem: 'Maven',
    name: 'org.junit.jupiter:junit-jupiter-api',
    version: '5.10.3',
    purl: 'pkg:maven/org.junit.jupiter/junit-jupiter-api@5.10.3',
    direct: true,
    scope: 'test',
  }),
  dep({
    ecosystem: 'Go',
    name: 'github.com/google/uuid',
    version: 'v1.6.0',
    purl: 'pkg:golang/github.com/google/uuid@v1.6.0',
    direct: true,
  }),
  dep({
    ecosystem: 'Docker',
    name: 'quay.io/prometheus/busybox',
    version: null,
    purl: 'pkg:docker/prometheus/busybox?repository_url=quay.io',
    direct: true,
  }),
  dep({
    ecosystem: 'Cargo',
    name: 'serde',
    version: '1.0.197',
    purl: 'pkg:cargo/serde@1.0.197',
    direct: true,
  }),
  dep({
    ecosystem: 'NuGet',
    name: 'newtonsoft.json',
    version: '13.0.3',
    purl: 'pkg:nuget/newtonsoft.json@13.0.3',
    direct: true,
  }),
  dep({
    ecosystem: 'RubyGems',
    name: 'rails',
    version: '7.1.3',
    purl: 'pkg:gem/rails@7.1.3',
    direct: true,
  }),
  dep({
    ecosystem: 'Composer',
    name: 'monolog/monolog',
    version: '3.5.0',
    purl: 'pkg:composer/monolog/monolog@3.5.0',
    direct: true,
  }),
];

/** The set a round trip must keep: (ecosystem, name, version, direct, parents). */
function keyset(
  list: {
    ecosystem: string;
    name: string;
    version: string | null;
    direct: boolean;
    parents: string[];
  }[],
) {
  const merged = new Map<string, { direct: boolean; parents: Set<string> }>();
  for (const d of list) {
    const key = `${d.ecosystem}|${d.name}|${d.version ?? ''}`;
    const seen = merged.get(key) ?? { direct: false, parents: new Set<string>() };
    seen.direct ||= d.direct;
    for (const p of d.parents) seen.parents.add(p);
    merged.set(key, seen);
  }
  return [...merged.entries()]
    .map(([key, v]) => `${key}|${v.direct}|${[...v.parents].sort().join(',')}`)
    .sort();
}

function reimport(document: unknown) {
  const read = readSbom(JSON.parse(JSON.stringify(document)));
  if (!read.ok) throw new Error(`reimport failed: ${JSON.stringify(read.errors)}`);
  return toDependencies(read.graph).files.flatMap((file) =>
    file.dependencies.map((d) => ({ ...d, ecosystem: file.ecosystem })),
  );
}

describe('writeCycloneDx16', () => {
  test('is valid against the official CycloneDX 1.6 schema', () => {
    const validate = cycloneDxValidator('1.6');
    const document = writeCycloneDx16(subject, dependencies);
    expect(validate(document), schemaErrors(validate).join('\n')).toBe(true);
    // An empty repository is a valid document too.
    expect(validate(writeCycloneDx16(subject, [])), schemaErrors(validate).join('\n')).toBe(true);
  });

  test('is deterministic and derives its serial number from the export id', () => {
    const a = JSON.stringify(writeCycloneDx16(subject, dependencies));
    const b = JSON.stringify(writeCycloneDx16(subject, [...dependencies].reverse()));
    expect(a).toBe(b);
    const document = JSON.parse(a);
    expect(document.serialNumber).toMatch(
      /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const other = writeCycloneDx16(
      { ...subject, exportId: '01936f4e-8a2b-7c3d-9e4f-5a6b7c8d9e10' },
      dependencies,
    );
    expect(other.serialNumber).not.toBe(document.serialNumber);
    expect(document.metadata.timestamp).toBe('2026-03-04T05:06:07Z');
  });

  test('merges duplicates, keeps scopes, licences and versioned purls', () => {
    const document = writeCycloneDx16(subject, dependencies) as {
      components: Record<string, unknown>[];
    };
    const express = document.components.filter((c) => c.name === 'express');
    expect(express).toEqual([
      {
        type: 'library',
        'bom-ref': 'pkg:npm/express@4.18.2',
        name: 'express',
        version: '4.18.2',
        scope: 'required',
        purl: 'pkg:npm/express@4.18.2',
        licenses: [{ expression: 'MIT' }],
      },
    ]);
    const babel = document.components.find((c) => c.name === 'core');
    expect(babel).toMatchObject({
      group: '@babel',
      scope: 'excluded',
      purl: 'pkg:npm/%40babel/core@7.23.9',
    });
    const lodash = document.components.find((c) => c.name === 'lodash');
    expect(lodash).toMatchObject({ version: '^4.17.0', purl: 'pkg:npm/lodash@%5E4.17.0' });
  });

  test('round trip: export → import gives the same dependency set', () => {
    const back = reimport(writeCycloneDx16(subject, dependencies));
    // `api-gateway` names no component of the export: the edge cannot be written.
    const expected = dependencies.map((d) => ({
      ...d,
      parents: d.parents.filter((p) => p !== 'api-gateway'),
    }));
    expect(keyset(back)).toEqual(keyset(expected));
  });
});

describe("the project's own package (scope self)", () => {
  const own = dep({
    ecosystem: 'Cargo',
    name: 'storefront-core',
    version: '1.4.0',
    purl: 'pkg:cargo/storefront-core@1.4.0',
    scope: 'self',
  });
  const withOwn = [own, ...dependencies];

  test('CycloneDX: nested under metadata.component, not a component or a dependency', () => {
    const validate = cycloneDxValidator('1.6');
    const document = writeCycloneDx16(subject, withOwn) as {
      metadata: { component: { components?: Record<string, unknown>[] } };
      components: Record<string, unknown>[];
    };
    expect(validate(document), schemaErrors(validate).join('\n')).toBe(true);
    expect(document.metadata.component.components).toEqual([
      {
        type: 'library',
        'bom-ref': `repository:${subject.repositoryId}/pkg:cargo/storefront-core@1.4.0`,
        name: 'storefront-core',
        version: '1.4.0',
        purl: 'pkg:cargo/storefront-core@1.4.0',
      },
    ]);
    expect(document.components.some((c) => c.name === 'storefront-core')).toBe(false);
    // Re-imported, the document gives back the dependencies only.
    expect(keyset(reimport(document))).toEqual(
      keyset(reimport(writeCycloneDx16(subject, dependencies))),
    );
  });

  test('SPDX: left out (no nesting in SPDX 2.3)', () => {
    expect(JSON.stringify(writeSpdx23(subject, withOwn))).toBe(
      JSON.stringify(writeSpdx23(subject, dependencies)),
    );
  });
});

describe('writeSpdx23', () => {
  const document = writeSpdx23(subject, dependencies) as {
    packages: Record<string, unknown>[];
    relationships: {
      spdxElementId: string;
      relationshipType: string;
      relatedSpdxElement: string;
    }[];
    [key: string]: unknown;
  };

  test('carries every field SPDX 2.3 requires, with valid ids and references', () => {
    expect(document).toMatchObject({
      spdxVersion: 'SPDX-2.3',
      dataLicense: 'CC0-1.0',
      SPDXID: 'SPDXRef-DOCUMENT',
      name: 'octo-org/storefront',
      creationInfo: { created: '2026-03-04T05:06:07Z', creators: ['Tool: driftwatch-0.1.0'] },
    });
    expect(document.documentNamespace).toMatch(/^https:\/\/[^#\s]+$/);
    const ids = new Set(document.packages.map((p) => p.SPDXID as string));
    expect(ids.size).toBe(document.packages.length);
    for (const pkg of document.packages) {
      expect(pkg.SPDXID).toMatch(/^SPDXRef-[A-Za-z0-9.-]+$/);
      for (const field of [
        'name',
        'downloadLocation',
        'licenseConcluded',
        'licenseDeclared',
        'copyrightText',
      ]) {
        expect(pkg).toHaveProperty([field]);
      }
      expect(pkg.filesAnalyzed).toBe(false);
    }
    for (const r of document.relationships) {
      expect(r.spdxElementId === 'SPDXRef-DOCUMENT' || ids.has(r.spdxElementId)).toBe(true);
      expect(ids.has(r.relatedSpdxElement)).toBe(true);
    }
    const requests = document.packages.find((p) => p.name === 'requests');
    expect(requests).toMatchObject({
      licenseDeclared: 'Apache-2.0 OR (MIT AND BSD-3-Clause)',
      externalRefs: [
        {
          referenceCategory: 'PACKAGE-MANAGER',
          referenceType: 'purl',
          referenceLocator: 'pkg:pypi/requests@2.31.0',
        },
      ],
    });
    expect(document.packages.find((p) => p.name === 'rails')).toMatchObject({
      licenseDeclared: 'NOASSERTION',
    });
  });

  test('round trip: export → import gives the same dependency set', () => {
    const back = reimport(document);
    const expected = dependencies.map((d) => ({
      ...d,
      parents: d.parents.filter((p) => p !== 'api-gateway'),
    }));
    expect(keyset(back)).toEqual(keyset(expected));
  });

  test('is deterministic', () => {
    expect(JSON.stringify(writeSpdx23(subject, [...dependencies].reverse()))).toBe(
      JSON.stringify(document),
    );
  });
});

/**
 * The official SPDX 2.3 JSON schema (`schemas/spdx-schema.json` of spdx/spdx-spec, draft-07) is
 * not vendored (no package reachable here ships it): it is looked for at `$SPDX_SCHEMA_PATH`,
 * then at `<shared>/schemas/spdx-2.3.schema.json` (`<shared>` = the folder above the shared
 * data), and the suite is skipped when neither exists. See docs/sbom.md.
 */
const SPDX_SCHEMA_ENV = process.env.SPDX_SCHEMA_PATH ? resolve(process.env.SPDX_SCHEMA_PATH) : null;
const SPDX_SCHEMA_SHARED = sharedDataDir
  ? resolve(sharedDataDir, '..', 'schemas', 'spdx-2.3.schema.json')
  : null;
const spdxSchemaPath =
  [SPDX_SCHEMA_ENV, SPDX_SCHEMA_SHARED].find((path) => path !== null && existsSync(path)) ?? null;
const SPDX_SCHEMA_MISSING =
  'official SPDX 2.3 JSON schema absent: skipping schema validation of SPDX exports (looked for ' +
  `SPDX_SCHEMA_PATH=${SPDX_SCHEMA_ENV ?? '(unset)'} and ` +
  `${SPDX_SCHEMA_SHARED ?? '../shared/schemas/spdx-2.3.schema.json (shared data not found)'})`;
if (!spdxSchemaPath) console.info(`write.test.ts: ${SPDX_SCHEMA_MISSING}`);

const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

describe.skipIf(!spdxSchemaPath)(
  `writeSpdx23 against the official SPDX 2.3 schema${spdxSchemaPath ? '' : ` (${SPDX_SCHEMA_MISSING})`}`,
  () => {
    const validator = () => {
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      return ajv.compile(JSON.parse(readFileSync(spdxSchemaPath!, 'utf8')) as object);
    };
    /** A fresh, mutable copy of the export. */
    const exported = (deps: ExportDependency[]) =>
      JSON.parse(JSON.stringify(writeSpdx23(subject, deps))) as {
        packages: Record<string, unknown>[];
        [key: string]: unknown;
      };

    test.each([
      ['a scan of every ecosystem', dependencies],
      ['an empty repository', []],
    ])('the export of %s is valid', (_, deps) => {
      const validate = validator();
      expect(validate(exported(deps)), schemaErrors(validate).join('\n')).toBe(true);
    });

    // The check must be able to fail: documents that break the schema are rejected, at the path.
    test.each([
      [
        'a package without SPDXID',
        (document: ReturnType<typeof exported>) => {
          delete document.packages[0]!.SPDXID;
        },
        { instancePath: '/packages/0', keyword: 'required', missingProperty: 'SPDXID' },
      ],
      [
        'spdxVersion as a number',
        (document: ReturnType<typeof exported>) => {
          document.spdxVersion = 2.3;
        },
        { instancePath: '/spdxVersion', keyword: 'type' },
      ],
    ])('rejects %s', (_, breakIt, expected) => {
      const validate = validator();
      const document = exported(dependencies);
      expect(validate(document), schemaErrors(validate).join('\n')).toBe(true);
      breakIt(document);
      expect(validate(document)).toBe(false);
      const errors = (validate.errors ?? []).map((error) => ({
        instancePath: error.instancePath,
        keyword: error.keyword,
        ...('missingProperty' in error.params
          ? { missingProperty: error.params.missingProperty }
          : {}),
      }));
      expect(errors).toContainEqual(expected);
    });
  },
);

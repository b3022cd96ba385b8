import {
  componentsOf,
  deterministicUuid,
  type ExportDependency,
  type ExportSubject,
  edgesOf,
  isoSeconds,
} from './export-model';

/** SPDX ids allow letters, digits, `.` and `-` only. */
function idPart(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'x'
  );
}

const NOASSERTION = 'NOASSERTION';

/**
 * An SPDX 2.3 JSON document of a repository's dependencies. The repository is the described
 * package (`SPDXRef-DOCUMENT DESCRIBES SPDXRef-Repository`), its direct dependencies are
 * `DEPENDS_ON` edges from it, stored parents are `DEPENDS_ON` edges between packages. Licences
 * the catalogue does not know are NOASSERTION; `documentNamespace` derives from the export id.
 */
export function writeSpdx23(
  subject: ExportSubject,
  dependencies: ExportDependency[],
): Record<string, unknown> {
  // The project's own packages (scope self) are the subject, not its dependencies; SPDX 2.3 has
  // no nesting like CycloneDX's metadata.component.components, so they are left out.
  const components = componentsOf(dependencies.filter((d) => d.scope !== 'self'));
  const rootId = 'SPDXRef-Repository';
  const idOf = new Map<string, string>();
  const used = new Set<string>([rootId, 'SPDXRef-DOCUMENT']);
  for (const component of components) {
    const base = `SPDXRef-Package-${idPart(component.ecosystem)}-${idPart(component.name)}${
      component.version ? `-${idPart(component.version)}` : ''
    }`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    idOf.set(component.key, id);
  }
  const children = edgesOf(components);
  const slug = idPart(subject.repositoryName);

  const relationships: Record<string, string>[] = [
    {
      spdxElementId: 'SPDXRef-DOCUMENT',
      relationshipType: 'DESCRIBES',
      relatedSpdxElement: rootId,
    },
  ];
  for (const component of components) {
    if (!component.direct) continue;
    relationships.push({
      spdxElementId: rootId,
      relationshipType: 'DEPENDS_ON',
      relatedSpdxElement: idOf.get(component.key)!,
    });
  }
  for (const component of components) {
    for (const child of children.get(component.key) ?? []) {
      relationships.push({
        spdxElementId: idOf.get(component.key)!,
        relationshipType: 'DEPENDS_ON',
        relatedSpdxElement: idOf.get(child)!,
      });
    }
  }

  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: subject.repositoryName,
    documentNamespace: `https://driftwatch.dev/spdx/${slug}-${deterministicUuid(subject.exportId)}`,
    creationInfo: {
      created: isoSeconds(subject.createdAt),
      creators: [`Tool: ${subject.toolName}-${subject.toolVersion}`],
    },
    packages: [
      {
        name: subject.repositoryName,
        SPDXID: rootId,
        downloadLocation: subject.repositoryUrl ?? NOASSERTION,
        filesAnalyzed: false,
        licenseConcluded: NOASSERTION,
        licenseDeclared: NOASSERTION,
        copyrightText: NOASSERTION,
        primaryPackagePurpose: 'APPLICATION',
      },
      ...components.map((component) => ({
        name: component.name,
        SPDXID: idOf.get(component.key)!,
        ...(component.version ? { versionInfo: component.version } : {}),
        downloadLocation: NOASSERTION,
        filesAnalyzed: false,
        licenseConcluded: NOASSERTION,
        licenseDeclared: component.licence ?? NOASSERTION,
        copyrightText: NOASSERTION,
        externalRefs: [
          {
            referenceCategory: 'PACKAGE-MANAGER',
            referenceType: 'purl',
            referenceLocator: component.versionedPurl,
          },
        ],
        primaryPackagePurpose: 'LIBRARY',
      })),
    ],
    relationships,
  };
}

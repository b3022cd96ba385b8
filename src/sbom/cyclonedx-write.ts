import {
  componentsOf,
  deterministicUuid,
  type ExportDependency,
  type ExportSubject,
  edgesOf,
  isoSeconds,
} from './export-model';

const CYCLONEDX_SCOPE: Record<string, 'required' | 'optional' | 'excluded'> = {
  runtime: 'required',
  optional: 'optional',
  development: 'excluded',
  test: 'excluded',
  build: 'excluded',
};

/**
 * A CycloneDX 1.6 JSON document of a repository's dependencies. The repository is
 * `metadata.component`; every distinct (ecosystem, name, version) is a library component whose
 * `bom-ref` is its versioned purl; `dependencies` carries the root's direct edges and the stored
 * parent edges. The project's own packages (scope self) are `metadata.component.components`.
 * Deterministic: same subject and dependencies, same bytes.
 */
export function writeCycloneDx16(
  subject: ExportSubject,
  dependencies: ExportDependency[],
): Record<string, unknown> {
  // The project's own packages (scope self) are parts of the subject, not its dependencies:
  // nested under metadata.component, as CycloneDX describes a multi-module project.
  const components = componentsOf(dependencies.filter((d) => d.scope !== 'self'));
  const own = componentsOf(dependencies.filter((d) => d.scope === 'self'));
  const rootRef = `repository:${subject.repositoryId}`;
  const refOf = new Map<string, string>();
  const usedRefs = new Set<string>([rootRef]);
  for (const component of components) {
    let ref = component.versionedPurl;
    // Two keys can share a purl (a range is no purl version); keep refs unique.
    for (let n = 2; usedRefs.has(ref); n++) ref = `${component.versionedPurl}#${n}`;
    usedRefs.add(ref);
    refOf.set(component.key, ref);
  }
  const children = edgesOf(components);

  const repository: Record<string, unknown> = {
    type: 'application',
    'bom-ref': rootRef,
    name: subject.repositoryName,
  };
  if (subject.repositoryUrl) {
    repository.externalReferences = [{ type: 'vcs', url: subject.repositoryUrl }];
  }
  if (own.length > 0) {
    repository.components = own.map((component) => ({
      type: 'library',
      'bom-ref': `${rootRef}/${component.versionedPurl}`,
      ...(component.group ? { group: component.group } : {}),
      name: component.shortName,
      ...(component.version ? { version: component.version } : {}),
      purl: component.versionedPurl,
    }));
  }

  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${deterministicUuid(subject.exportId)}`,
    version: 1,
    metadata: {
      timestamp: isoSeconds(subject.createdAt),
      tools: {
        components: [{ type: 'application', name: subject.toolName, version: subject.toolVersion }],
      },
      component: repository,
    },
    components: components.map((component) => {
      const { group, shortName: name } = component;
      const out: Record<string, unknown> = {
        type: 'library',
        'bom-ref': refOf.get(component.key),
        ...(group ? { group } : {}),
        name,
        ...(component.version ? { version: component.version } : {}),
        scope: CYCLONEDX_SCOPE[component.scope] ?? 'required',
        purl: component.versionedPurl,
      };
      if (component.licence) out.licenses = [{ expression: component.licence }];
      return out;
    }),
    dependencies: [
      {
        ref: rootRef,
        dependsOn: components
          .filter((component) => component.direct)
          .map((component) => refOf.get(component.key)!),
      },
      ...components.map((component) => ({
        ref: refOf.get(component.key)!,
        dependsOn: (children.get(component.key) ?? []).map((key) => refOf.get(key)!),
      })),
    ],
  };
}

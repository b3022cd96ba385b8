import type { DependencyScope } from '../ecosystems/types';
import { field, isObject, optionalArray, optionalText, type ReadCollector } from './collect';
import type { SbomEdge, SbomGraph, SbomLimits, SbomNode } from './types';

export const SPDX_VERSIONS = ['SPDX-2.2', 'SPDX-2.3'] as const;

/**
 * Relationship types that are dependency edges, with the direction they point and the scope
 * they state. `X DEPENDS_ON Y`: X needs Y. `X DEPENDENCY_OF Y` (and the scoped variants): Y
 * needs X.
 */
const DEPENDENCY_RELATIONSHIPS: Record<
  string,
  { reverse: boolean; scope: DependencyScope | null }
> = {
  DEPENDS_ON: { reverse: false, scope: null },
  DEPENDENCY_OF: { reverse: true, scope: null },
  RUNTIME_DEPENDENCY_OF: { reverse: true, scope: 'runtime' },
  DEV_DEPENDENCY_OF: { reverse: true, scope: 'development' },
  TEST_DEPENDENCY_OF: { reverse: true, scope: 'test' },
  BUILD_DEPENDENCY_OF: { reverse: true, scope: 'build' },
  OPTIONAL_DEPENDENCY_OF: { reverse: true, scope: 'optional' },
  PROVIDED_DEPENDENCY_OF: { reverse: true, scope: 'build' },
};

const DOCUMENT = 'SPDXRef-DOCUMENT';

/** The purl among a package's external references (`PACKAGE-MANAGER` / `purl`). */
function purlOf(pkg: Record<string, unknown>, path: string, collector: ReadCollector) {
  const refs = optionalArray(pkg, 'externalRefs', `${path}.externalRefs`, collector) ?? [];
  for (let k = 0; k < refs.length && k < 1000; k++) {
    const ref = refs[k];
    if (!isObject(ref)) {
      collector.error(`${path}.externalRefs[${k}]`, 'must be an object');
      continue;
    }
    if (field(ref, 'referenceType') !== 'purl') continue;
    return optionalText(
      ref,
      'referenceLocator',
      `${path}.externalRefs[${k}].referenceLocator`,
      collector,
    );
  }
  return undefined;
}

function toolOf(doc: Record<string, unknown>): string | null {
  const info = field(doc, 'creationInfo');
  if (!isObject(info)) return null;
  const creators = field(info, 'creators');
  if (!Array.isArray(creators)) return null;
  for (const creator of creators.slice(0, 20)) {
    if (typeof creator === 'string' && creator.startsWith('Tool:')) {
      return creator.slice(5).trim().slice(0, 200) || null;
    }
  }
  return null;
}

/**
 * Reads an SPDX 2.2/2.3 JSON document into the neutral graph: packages are the nodes, what the
 * document DESCRIBES (or `documentDescribes`) are the roots, and the DEPENDS_ON / *DEPENDENCY_OF
 * relationships are the edges. CONTAINS is containment, not dependency, and is not an edge.
 */
export function readSpdx(
  doc: Record<string, unknown>,
  specVersion: string,
  limits: SbomLimits,
  collector: ReadCollector,
): SbomGraph {
  const { nodes, refs } = readPackages(doc, limits, collector);
  const roots = new Set<string>();
  const describes = optionalArray(doc, 'documentDescribes', 'documentDescribes', collector) ?? [];
  for (let i = 0; i < describes.length && i < 1000; i++) {
    const id = describes[i];
    if (typeof id !== 'string') collector.error(`documentDescribes[${i}]`, 'must be a string');
    else roots.add(id);
  }
  const links = readRelationships(doc, roots, limits, collector);
  // Second pass: the roots are known whatever order the relationships came in.
  const edges = links ? dependencyEdges(links, refs, roots, collector) : [];
  return {
    format: 'spdx',
    specVersion,
    tool: toolOf(doc),
    nodes,
    roots: [...roots],
    edges,
    hasDependencyGraph: edges.length > 0,
  };
}

/** The packages: the graph's nodes; the first of a repeated SPDXID wins. */
function readPackages(doc: Record<string, unknown>, limits: SbomLimits, collector: ReadCollector) {
  const nodes: SbomNode[] = [];
  const refs = new Map<string, string>();
  const packages = optionalArray(doc, 'packages', 'packages', collector) ?? [];
  if (packages.length > limits.maxComponents) {
    collector.error('packages', `more than ${limits.maxComponents} packages`);
  } else {
    for (let i = 0; i < packages.length; i++) {
      const path = `packages[${i}]`;
      const pkg = packages[i];
      if (!isObject(pkg)) {
        collector.error(path, 'must be an object');
        continue;
      }
      const id = optionalText(pkg, 'SPDXID', `${path}.SPDXID`, collector);
      const name = optionalText(pkg, 'name', `${path}.name`, collector);
      const version = optionalText(pkg, 'versionInfo', `${path}.versionInfo`, collector);
      const purl = purlOf(pkg, path, collector);
      if (field(pkg, 'SPDXID') === undefined) collector.error(`${path}.SPDXID`, 'is required');
      if (field(pkg, 'name') === undefined) collector.error(`${path}.name`, 'is required');
      if (id === undefined || name === undefined) continue;
      const seen = refs.get(id);
      if (seen !== undefined) {
        collector.warn(`${path}: SPDXID "${id}" repeats ${seen}; the first one is kept`);
        continue;
      }
      refs.set(id, path);
      nodes.push({
        ref: id,
        name,
        version: version ?? null,
        purl: purl ?? null,
        path,
        scope: null,
      });
    }
  }
  return { nodes, refs };
}

type DependencyLink = [from: string, type: string, to: string];

/**
 * Reads the relationships: DESCRIBES / DESCRIBED_BY add roots, dependency relationships are
 * returned as links. Null (nothing kept) when there are more than `limits.maxEdges`.
 */
function readRelationships(
  doc: Record<string, unknown>,
  roots: Set<string>,
  limits: SbomLimits,
  collector: ReadCollector,
): DependencyLink[] | null {
  const relationships = optionalArray(doc, 'relationships', 'relationships', collector) ?? [];
  if (relationships.length > limits.maxEdges) {
    collector.error('relationships', `more than ${limits.maxEdges} relationships`);
    return null;
  }
  const dependencyLinks: DependencyLink[] = [];
  for (let i = 0; i < relationships.length; i++) {
    const path = `relationships[${i}]`;
    const relationship = relationships[i];
    if (!isObject(relationship)) {
      collector.error(path, 'must be an object');
      continue;
    }
    const from = optionalText(relationship, 'spdxElementId', `${path}.spdxElementId`, collector);
    const type = optionalText(
      relationship,
      'relationshipType',
      `${path}.relationshipType`,
      collector,
    );
    const to = optionalText(
      relationship,
      'relatedSpdxElement',
      `${path}.relatedSpdxElement`,
      collector,
    );
    for (const key of ['spdxElementId', 'relationshipType', 'relatedSpdxElement']) {
      if (field(relationship, key) === undefined) collector.error(`${path}.${key}`, 'is required');
    }
    if (from === undefined || type === undefined || to === undefined) continue;
    if (type === 'DESCRIBES' && from === DOCUMENT) roots.add(to);
    else if (type === 'DESCRIBED_BY' && to === DOCUMENT) roots.add(from);
    else if (Object.hasOwn(DEPENDENCY_RELATIONSHIPS, type)) dependencyLinks.push([from, type, to]);
  }
  return dependencyLinks;
}

/** The links between known elements as parent → child edges. */
function dependencyEdges(
  links: readonly DependencyLink[],
  refs: Map<string, string>,
  roots: Set<string>,
  collector: ReadCollector,
): SbomEdge[] {
  const edges: SbomEdge[] = [];
  let unknownRefs = 0;
  for (const [from, type, to] of links) {
    const kind = DEPENDENCY_RELATIONSHIPS[type]!;
    const [parent, child] = kind.reverse ? [to, from] : [from, to];
    // NONE / NOASSERTION and references into other documents (DocumentRef-x:...) are no edge here.
    if ((!refs.has(parent) && !roots.has(parent)) || !refs.has(child)) {
      unknownRefs++;
      continue;
    }
    if (parent !== child) edges.push({ from: parent, to: child, scope: kind.scope });
  }
  if (unknownRefs > 0) {
    collector.warn(
      `${unknownRefs} dependency relationships name an element no package has; ignored`,
    );
  }
  return edges;
}

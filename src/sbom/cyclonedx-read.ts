import type { DependencyScope } from '../ecosystems/types';
import { field, isObject, optionalArray, optionalText, type ReadCollector } from './collect';
import type { SbomEdge, SbomGraph, SbomLimits, SbomNode } from './types';

export const CYCLONEDX_VERSIONS = ['1.4', '1.5', '1.6'] as const;

const SCOPES: Record<string, DependencyScope> = {
  required: 'runtime',
  optional: 'optional',
  // "excluded": not part of what runs (development, test, build tooling).
  excluded: 'development',
};

/** `metadata.tools`: an array of {vendor, name, version} in 1.4, {components, services} since 1.5. */
function toolOf(metadata: Record<string, unknown>): string | null {
  const tools = field(metadata, 'tools');
  let list: unknown[] = [];
  if (Array.isArray(tools)) list = tools;
  else if (isObject(tools)) {
    const components = field(tools, 'components');
    if (Array.isArray(components)) list = components;
  }
  for (const tool of list.slice(0, 20)) {
    if (!isObject(tool)) continue;
    const name = field(tool, 'name');
    const version = field(tool, 'version');
    if (typeof name !== 'string' || name.trim() === '') continue;
    const text = typeof version === 'string' ? `${name} ${version}` : name;
    return text.slice(0, 200);
  }
  return null;
}

/**
 * Reads a CycloneDX JSON document (1.4 to 1.6) into the neutral graph. Structural breaks (a
 * component that is not an object or has no name, a `dependencies` entry without `ref`) are
 * errors; what tools get wrong in practice (duplicate `bom-ref`, edges to unknown refs) are
 * warnings. Nested `components` are walked without recursion, to `limits.maxNesting` levels.
 */
export function readCycloneDx(
  doc: Record<string, unknown>,
  specVersion: string,
  limits: SbomLimits,
  collector: ReadCollector,
): SbomGraph {
  const { tool, roots } = readSubject(doc, collector);
  const { nodes, refs } = readComponents(doc, limits, collector);
  const { edges, full } = readEdges(doc, refs, roots, limits, collector);
  return {
    format: 'cyclonedx',
    specVersion,
    tool,
    nodes,
    roots: [...roots],
    edges,
    // Cut off at the edge limit: the document did have a graph.
    hasDependencyGraph: full || edges.length > 0,
  };
}

/** The producing tool and the subject's refs (its own modules included): the graph's roots. */
function readSubject(doc: Record<string, unknown>, collector: ReadCollector) {
  const roots = new Set<string>();
  let tool: string | null = null;

  const metadata = field(doc, 'metadata');
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) {
    collector.error('metadata', 'must be an object');
  } else if (isObject(metadata)) {
    tool = toolOf(metadata);
    const subject = field(metadata, 'component');
    if (isObject(subject)) {
      const ref = optionalText(subject, 'bom-ref', 'metadata.component.bom-ref', collector);
      if (ref) roots.add(ref);
      // The subject's own modules (a multi-module build) are part of the subject, not dependencies.
      const modules = field(subject, 'components');
      if (Array.isArray(modules)) {
        for (const module of modules.slice(0, 1000)) {
          const moduleRef = isObject(module) ? field(module, 'bom-ref') : undefined;
          if (typeof moduleRef === 'string' && moduleRef !== '') roots.add(moduleRef);
        }
      }
    } else if (subject !== undefined && subject !== null) {
      collector.error('metadata.component', 'must be an object');
    }
  }
  return { tool, roots };
}

/** The components, nested ones walked without recursion; the first of a repeated bom-ref wins. */
function readComponents(
  doc: Record<string, unknown>,
  limits: SbomLimits,
  collector: ReadCollector,
) {
  const nodes: SbomNode[] = [];
  const refs = new Map<string, string>();
  const top = optionalArray(doc, 'components', 'components', collector);
  // An explicit stack of [array, path prefix, depth] instead of recursion.
  const stack: [unknown[], string, number][] = top ? [[top, 'components', 1]] : [];
  let tooMany = false;
  while (stack.length > 0 && !tooMany) {
    const [list, prefix, depth] = stack.pop()!;
    for (let i = 0; i < list.length; i++) {
      const path = `${prefix}[${i}]`;
      const component = list[i];
      if (!isObject(component)) {
        collector.error(path, 'must be an object');
        continue;
      }
      const name = optionalText(component, 'name', `${path}.name`, collector);
      const rawName = field(component, 'name');
      if (rawName === undefined || rawName === null) collector.error(`${path}.name`, 'is required');
      else if (name === undefined && typeof rawName === 'string') {
        collector.warn(`${path}: a component with an empty name; skipped`);
      }
      const version = optionalText(component, 'version', `${path}.version`, collector);
      const purl = optionalText(component, 'purl', `${path}.purl`, collector);
      const ref = optionalText(component, 'bom-ref', `${path}.bom-ref`, collector);
      const scopeText = optionalText(component, 'scope', `${path}.scope`, collector);
      const children = optionalArray(component, 'components', `${path}.components`, collector);
      if (children && children.length > 0) {
        if (depth >= limits.maxNesting) {
          collector.error(
            `${path}.components`,
            `components nest deeper than ${limits.maxNesting} levels`,
          );
        } else {
          stack.push([children, `${path}.components`, depth + 1]);
        }
      }
      if (name === undefined) continue;
      if (nodes.length >= limits.maxComponents) {
        collector.error('components', `more than ${limits.maxComponents} components`);
        tooMany = true;
        break;
      }
      const nodeRef = ref ?? `#${path}`;
      const seen = refs.get(nodeRef);
      if (seen !== undefined) {
        collector.warn(`${path}: bom-ref "${nodeRef}" repeats ${seen}; the first one is kept`);
        continue;
      }
      refs.set(nodeRef, path);
      nodes.push({
        ref: nodeRef,
        name,
        version: version ?? null,
        purl: purl ?? null,
        path,
        scope: scopeText ? (SCOPES[scopeText] ?? null) : null,
      });
    }
  }
  return { nodes, refs };
}

/**
 * The dependency edges between known refs; `full` when the edge limit cut them off (then the
 * count of edges to unknown refs is not reported).
 */
function readEdges(
  doc: Record<string, unknown>,
  refs: Map<string, string>,
  roots: Set<string>,
  limits: SbomLimits,
  collector: ReadCollector,
): { edges: SbomEdge[]; full: boolean } {
  const edges: SbomEdge[] = [];
  const known = (ref: string) => refs.has(ref) || roots.has(ref);
  const dependencies = optionalArray(doc, 'dependencies', 'dependencies', collector) ?? [];
  let unknownRefs = 0;
  for (let i = 0; i < dependencies.length; i++) {
    const path = `dependencies[${i}]`;
    const entry = dependencies[i];
    if (!isObject(entry)) {
      collector.error(path, 'must be an object');
      continue;
    }
    const ref = optionalText(entry, 'ref', `${path}.ref`, collector);
    if (ref === undefined) {
      if (field(entry, 'ref') === undefined) collector.error(`${path}.ref`, 'is required');
      continue;
    }
    const dependsOn = optionalArray(entry, 'dependsOn', `${path}.dependsOn`, collector) ?? [];
    for (let k = 0; k < dependsOn.length; k++) {
      const target = dependsOn[k];
      if (typeof target !== 'string') {
        collector.error(`${path}.dependsOn[${k}]`, 'must be a string');
        continue;
      }
      if (!known(ref) || !known(target)) {
        unknownRefs++;
        continue;
      }
      if (edges.length >= limits.maxEdges) {
        collector.error('dependencies', `more than ${limits.maxEdges} dependency edges`);
        return { edges, full: true };
      }
      if (ref !== target) edges.push({ from: ref, to: target, scope: null });
    }
  }
  if (unknownRefs > 0) {
    collector.warn(`${unknownRefs} dependency edges name a bom-ref no component has; ignored`);
  }
  return { edges, full: false };
}

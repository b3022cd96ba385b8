import { dedupe } from '../ecosystems/dependency-list';
import type { ExtractedFile } from '../ecosystems/extract-tree';
import type { DependencyScope, Ecosystem, ExtractedDependency } from '../ecosystems/types';
import { type MappedPackage, mapPurl } from './purl-map';
import type { SbomGraph, SbomNode } from './types';

export interface SbomDependencies {
  /** One file per ecosystem, the shape the extraction engine gives a scan. */
  files: ExtractedFile[];
  /** Components that could not become dependencies, summarised for the scan log. */
  warnings: string[];
  /** How many components were read and how many became dependencies (before dedupe). */
  componentCount: number;
  mappedCount: number;
}

/** The path recorded as the dependencies' file: the SBOM is one virtual file. */
export function sbomFilePath(graph: Pick<SbomGraph, 'format' | 'specVersion'>): string {
  return `sbom:${graph.format}-${graph.specVersion}`;
}

const EXAMPLES = 5;

function summarise(label: string, names: string[]): string {
  const shown = names.slice(0, EXAMPLES).join(', ');
  const more = names.length > EXAMPLES ? ` and ${names.length - EXAMPLES} more` : '';
  return `${names.length} ${label}: ${shown}${more}`;
}

/**
 * Turns the neutral graph into dependencies. Direct means "the subject depends on it": an edge
 * from a root (the described application). When no edge leaves a root (syft's flat lists, SPDX
 * files with only CONTAINS), a component is direct when no other component depends on it; with
 * no edges at all, every component is direct. Parents are the names of the components with an
 * edge to this one. Only direct edges are looked at, so cycles cannot loop.
 */
export function toDependencies(graph: SbomGraph): SbomDependencies {
  const roots = new Set(graph.roots);
  const incoming = new Map<string, { from: string; scope: DependencyScope | null }[]>();
  let rootHasEdges = false;
  for (const edge of graph.edges) {
    if (roots.has(edge.from)) rootHasEdges = true;
    const list = incoming.get(edge.to);
    if (list) list.push(edge);
    else incoming.set(edge.to, [edge]);
  }

  const mapped = new Map<string, MappedPackage>();
  const noPurl: string[] = [];
  const invalid: string[] = [];
  const unsupported = new Map<string, number>();
  for (const node of graph.nodes) {
    if (roots.has(node.ref)) continue;
    if (node.purl === null) {
      noPurl.push(label(node));
      continue;
    }
    const result = mapPurl(node.purl, node.version);
    if (result.ok) mapped.set(node.ref, result.value);
    else if (result.reason === 'unsupported') {
      unsupported.set(result.type, (unsupported.get(result.type) ?? 0) + 1);
    } else invalid.push(`${node.path}.purl (${result.message})`);
  }

  const nameOf = new Map(graph.nodes.map((node) => [node.ref, node.name]));
  const byEcosystem = new Map<Ecosystem, ExtractedDependency[]>();
  for (const node of graph.nodes) {
    const pkg = mapped.get(node.ref);
    if (!pkg) continue;
    const edges = incoming.get(node.ref) ?? [];
    const fromRoot = edges.some((edge) => roots.has(edge.from));
    const fromComponent = edges.filter((edge) => !roots.has(edge.from));
    const direct = rootHasEdges ? fromRoot : fromComponent.length === 0;
    const parents = [
      ...new Set(
        fromComponent.map(
          (edge) => mapped.get(edge.from)?.name ?? nameOf.get(edge.from) ?? edge.from,
        ),
      ),
    ];
    const list = byEcosystem.get(pkg.ecosystem.id) ?? [];
    list.push({
      name: pkg.name,
      version: pkg.version,
      purl: pkg.purl,
      scope: scopeOf(node, edges),
      direct,
      resolution: pkg.resolution,
      line: null,
      parents,
      source: { kind: 'registry' },
    });
    byEcosystem.set(pkg.ecosystem.id, list);
  }

  const path = sbomFilePath(graph);
  const format = `${graph.format === 'cyclonedx' ? 'CycloneDX' : 'SPDX'} ${graph.specVersion}${graph.tool ? ` (${graph.tool})` : ''}`;
  const files: ExtractedFile[] = [...byEcosystem.entries()].map(([ecosystem, dependencies]) => ({
    path,
    ecosystem,
    format,
    extractor: `sbom/${graph.format}`,
    dependencies: dedupe(dependencies),
    errors: [],
  }));

  const warnings: string[] = [];
  if (noPurl.length > 0) warnings.push(summarise('components without a purl were skipped', noPurl));
  if (unsupported.size > 0) {
    const types = [...unsupported.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([type, count]) => `${type} (${count})`);
    const total = [...unsupported.values()].reduce((sum, count) => sum + count, 0);
    warnings.push(
      `${total} components of package types without a supported ecosystem were skipped: ${types.slice(0, 20).join(', ')}`,
    );
  }
  if (invalid.length > 0)
    warnings.push(summarise('components with an invalid purl were skipped', invalid));
  return {
    files,
    warnings,
    componentCount: graph.nodes.filter((node) => !roots.has(node.ref)).length,
    mappedCount: mapped.size,
  };
}

function label(node: SbomNode): string {
  return node.version ? `${node.name}@${node.version}` : node.name;
}

/** The scope the edges state (runtime wins when they disagree), else the component's own. */
function scopeOf(node: SbomNode, edges: { scope: DependencyScope | null }[]): DependencyScope {
  const stated = edges.map((edge) => edge.scope).filter((scope) => scope !== null);
  if (stated.length > 0 && stated.length === edges.length) {
    return stated.includes('runtime') ? 'runtime' : stated[0]!;
  }
  return node.scope ?? 'runtime';
}

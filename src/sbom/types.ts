import type { DependencyScope } from '../ecosystems/types';

/**
 * The neutral shape both readers (CycloneDX, SPDX) produce and the mapper consumes: a graph of
 * components with the document's own references, independent of the ecosystems. Plain JSON, so the
 * import job can carry it in a jsonb column.
 */
export type SbomFormat = 'cyclonedx' | 'spdx';

export interface SbomNode {
  /** The document's reference (`bom-ref`, `SPDXID`), or a synthetic one when it has none. */
  ref: string;
  name: string;
  version: string | null;
  purl: string | null;
  /** Where the component sits in the document (`components[3]`), for messages. */
  path: string;
  /** A scope the document states for the component itself (CycloneDX `scope`). */
  scope: DependencyScope | null;
}

export interface SbomEdge {
  from: string;
  to: string;
  /** A scope the relationship states (SPDX `DEV_DEPENDENCY_OF`, ...); null when it says none. */
  scope: DependencyScope | null;
}

export interface SbomGraph {
  format: SbomFormat;
  /** `1.4` | `1.5` | `1.6` for CycloneDX, `2.2` | `2.3` for SPDX. */
  specVersion: string;
  /** The tool that wrote the document (`syft 1.4.1`), when it says. */
  tool: string | null;
  nodes: SbomNode[];
  /** References of what the document describes (the application, the repository). */
  roots: string[];
  edges: SbomEdge[];
  /**
   * True when the document carries dependency relationships at all. False for a flat list
   * (syft's CycloneDX without `dependencies`, an SPDX file with only CONTAINS).
   */
  hasDependencyGraph: boolean;
}

export interface SbomLimits {
  /** Components (packages) at most; more is refused as a whole (422). */
  maxComponents: number;
  /** Dependency edges at most. */
  maxEdges: number;
  /** Nesting of CycloneDX `components[].components[]` at most. */
  maxNesting: number;
}

export const DEFAULT_SBOM_LIMITS: SbomLimits = {
  maxComponents: 50_000,
  maxEdges: 500_000,
  maxNesting: 32,
};

/** Field path (`components[3].purl`) → messages, the shape of problem `errors`. */
export type SbomErrors = Record<string, string[]>;

export type SbomReadResult =
  | { ok: true; graph: SbomGraph; warnings: string[] }
  /** 400: not an SBOM this service reads; 422: an SBOM that breaks its format's rules. */
  | { ok: false; status: 400 | 422; detail: string; errors: SbomErrors };

/**
 * Collects what the rules find in one file: one use per (line, primitive, algorithm), and
 * refinements (a key size or curve set later on the object a call produced, as JCA's
 * `generator.initialize(2048)` does) applied to the use of the producing call.
 */

import type {
  PublicKeyAlgorithm,
  SourceAlgorithmUse,
  SourceCryptoUse,
  SourceFileReport,
  SourceLanguage,
} from '../types.js';
import type { UsePrimitive } from './names.js';

export interface UseFields {
  primitive: UsePrimitive;
  algorithm: PublicKeyAlgorithm;
  curve?: string | undefined;
  keySize?: number | undefined;
  assumed?: boolean | undefined;
}

export interface Refinement {
  keySize?: number | undefined;
  curve?: string | undefined;
  /** Replaces the algorithm only of a use whose algorithm was assumed. */
  algorithm?: PublicKeyAlgorithm | undefined;
}

export interface ReportBuilder {
  use(nodeId: number, line: number, api: string, fields: UseFields): void;
  algorithm(line: number, algorithm: string, kind: SourceAlgorithmUse['kind']): void;
  refine(nodeId: number, refinement: Refinement): void;
  build(): SourceFileReport;
}

function applyRefinement(use: SourceCryptoUse, refinement: Refinement): void {
  if (refinement.keySize !== undefined && use.keySize === undefined) {
    use.keySize = refinement.keySize;
  }
  if (refinement.curve !== undefined && use.curve === undefined) use.curve = refinement.curve;
  if (refinement.algorithm !== undefined && use.assumed) {
    use.algorithm = refinement.algorithm;
    delete use.assumed;
  }
}

function withoutDuplicates(uses: readonly SourceCryptoUse[]): SourceCryptoUse[] {
  const byKey = new Map<string, SourceCryptoUse>();
  for (const use of uses) {
    const key = `${use.line}|${use.primitive}|${use.algorithm}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, use);
      continue;
    }
    seen.keySize ??= use.keySize;
    seen.curve ??= use.curve;
    if (seen.assumed && !use.assumed) delete seen.assumed;
  }
  return [...byKey.values()].sort((a, b) => a.line - b.line);
}

export function reportBuilder(language: SourceLanguage): ReportBuilder {
  const uses: SourceCryptoUse[] = [];
  const byNode = new Map<number, SourceCryptoUse[]>();
  const refinements: [number, Refinement][] = [];
  const algorithms = new Map<string, SourceAlgorithmUse>();
  return {
    use(nodeId, line, api, fields) {
      const use: SourceCryptoUse = {
        line,
        language,
        primitive: fields.primitive,
        algorithm: fields.algorithm,
        api,
      };
      if (fields.curve !== undefined) use.curve = fields.curve;
      if (fields.keySize !== undefined) use.keySize = fields.keySize;
      if (fields.assumed) use.assumed = true;
      uses.push(use);
      const list = byNode.get(nodeId) ?? [];
      list.push(use);
      byNode.set(nodeId, list);
    },
    algorithm(line, algorithm, kind) {
      const key = `${line}|${algorithm}`;
      if (!algorithms.has(key)) algorithms.set(key, { line, language, algorithm, kind });
    },
    refine(nodeId, refinement) {
      refinements.push([nodeId, refinement]);
    },
    build() {
      for (const [nodeId, refinement] of refinements) {
        for (const use of byNode.get(nodeId) ?? []) applyRefinement(use, refinement);
      }
      return {
        uses: withoutDuplicates(uses),
        algorithms: [...algorithms.values()].sort((a, b) => a.line - b.line),
      };
    },
  };
}

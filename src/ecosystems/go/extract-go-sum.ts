import { buildPurl } from '../purl';
import { siblingOf } from '../shared/tree-paths';
import type {
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { compare, parseGoVersion } from './versioning';

/**
 * go.sum is a checksum database, not a build list: it holds `<module> <version>/go.mod` hashes for
 * every version minimal version selection looked at and `<module> <version>` hashes for the
 * module zips that were downloaded. go.mod is the source of truth, so when the sibling go.mod
 * exists this extractor reports nothing. Alone, it reports one entry per module path: the highest
 * version with a zip hash (what MVS would have selected); `/go.mod`-only lines are skipped because
 * those versions were only consulted, never built. Edges and directness are unknown here.
 */
export function extractGoSum(input: ExtractInput): ExtractionResult {
  try {
    if (input.readFile(siblingOf(input.path, 'go.mod')) !== null)
      return { dependencies: [], errors: [] };
    const errors: ExtractionError[] = [];
    const best = new Map<string, { version: string; line: number }>();
    const rows = input.text.split('\n');
    for (let index = 0; index < rows.length; index++) {
      const row = (rows[index] as string).trim();
      if (row.length === 0) continue;
      const line = index + 1;
      const fields = row.split(/\s+/);
      const [path, version, hash] = fields;
      if (fields.length !== 3 || !path || !version || !hash || !hash.includes(':')) {
        errors.push({ line, message: 'expected "<module> <version> <hash>"' });
        continue;
      }
      if (version.endsWith('/go.mod')) {
        if (!parseGoVersion(version.slice(0, -'/go.mod'.length))) {
          errors.push({ line, message: `invalid version ${JSON.stringify(version)}` });
        }
        continue;
      }
      if (!parseGoVersion(version) || !version.startsWith('v')) {
        errors.push({ line, message: `invalid version ${JSON.stringify(version)}` });
        continue;
      }
      const current = best.get(path);
      if (!current || compare(version, current.version) > 0) best.set(path, { version, line });
    }
    const dependencies: ExtractedDependency[] = [];
    for (const [name, { version, line }] of best) {
      dependencies.push({
        name,
        version,
        purl: buildPurl('golang', name, version),
        scope: 'runtime',
        direct: false,
        resolution: 'resolved',
        line,
        parents: [],
        source: { kind: 'registry' },
      });
    }
    return { dependencies, errors };
  } catch (error) {
    return { dependencies: [], errors: [{ line: null, message: `go.sum: ${String(error)}` }] };
  }
}

export const goSumExtractor: Extractor = {
  name: 'go/go-sum',
  version: 1,
  kind: 'lockfile',
  matches: (path) => path === 'go.sum' || path.endsWith('/go.sum'),
  extract: extractGoSum,
  describe: (input) =>
    input.readFile(siblingOf(input.path, 'go.mod')) !== null
      ? 'go.sum (go.mod is authoritative)'
      : 'go.sum',
};

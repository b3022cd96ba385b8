import { scanJsonKeys } from '../shared/json-lines';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { classifySpec, dedupe, errorMessage, fileError, isRecord, makeDependency } from './common';

/**
 * package.json on its own: the declared dependencies of one project, all direct. Ranges are
 * `declared`, exact versions `resolved`, `*` / `latest` / '' / other dist-tags `unpinned`; git,
 * tarball URL and local (`file:`, `link:`, `workspace:`) specs are reported as such. A `workspaces`
 * root is only its own declarations: each member's package.json is extracted when walked.
 */

const SECTIONS: readonly (readonly [string, DependencyScope])[] = [
  ['dependencies', 'runtime'],
  ['devDependencies', 'development'],
  ['optionalDependencies', 'optional'],
  // npm 7+ installs peers; they are what the package needs at run time.
  ['peerDependencies', 'runtime'],
];
const SECTION_NAMES = new Set(SECTIONS.map(([section]) => section));
const SEPARATOR = '\u0000';

function extract(input: ExtractInput): ExtractionResult {
  let data: unknown;
  try {
    data = JSON.parse(input.text);
  } catch (error) {
    return { dependencies: [], errors: [fileError(`invalid JSON: ${errorMessage(error)}`)] };
  }
  if (!isRecord(data)) {
    return { dependencies: [], errors: [fileError('package.json is not a JSON object')] };
  }
  const scan = scanJsonKeys(
    input.text,
    (path, key) => {
      if (path.length === 0) return SECTION_NAMES.has(key) ? key : null;
      return path.length === 1 && SECTION_NAMES.has(path[0] as string)
        ? `${path[0]}${SEPARATOR}${key}`
        : null;
    },
    { maxDepth: 1 },
  );
  const lines = new Map<string, number>();
  for (const record of scan.records) if (!lines.has(record.id)) lines.set(record.id, record.line);

  const errors: ExtractionError[] = [];
  const out: ExtractedDependency[] = [];
  const optionalPeers = isRecord(data.peerDependenciesMeta) ? data.peerDependenciesMeta : {};
  for (const [section, sectionScope] of SECTIONS) {
    const map = data[section];
    if (map === undefined) continue;
    if (!isRecord(map)) {
      errors.push({
        line: lines.get(section) ?? null,
        message: `${section} is not an object; skipped`,
      });
      continue;
    }
    for (const [name, spec] of Object.entries(map)) {
      const line = lines.get(`${section}${SEPARATOR}${name}`) ?? null;
      if (typeof spec !== 'string') {
        errors.push({ line, message: `${section}.${name}: the version is not a string; skipped` });
        continue;
      }
      if (name.trim() === '') {
        errors.push({ line, message: `${section}: empty package name; skipped` });
        continue;
      }
      const meta = optionalPeers[name];
      const scope =
        section === 'peerDependencies' && isRecord(meta) && meta.optional === true
          ? 'optional'
          : sectionScope;
      const classified = classifySpec(name, spec);
      out.push(
        makeDependency({
          name: classified.name,
          version: classified.version,
          resolution: classified.resolution,
          scope,
          direct: true,
          line,
          source: classified.source,
        }),
      );
    }
  }
  return { dependencies: dedupe(out), errors };
}

export const packageJsonExtractor: Extractor = {
  name: 'npm/package-json',
  version: 1,
  kind: 'manifest',
  matches: (path) => baseOf(path) === 'package.json',
  extract,
  describe: (input) => {
    try {
      const data: unknown = JSON.parse(input.text);
      if (isRecord(data) && data.workspaces !== undefined) return 'package.json (workspaces root)';
    } catch {
      // fall through: the extractor reports the parse error
    }
    return 'package.json';
  },
};

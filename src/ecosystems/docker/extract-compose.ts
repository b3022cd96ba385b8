import { type Document, LineCounter } from 'yaml';
import { baseOf } from '../shared/tree-paths';
import { parseYaml, yamlToJs } from '../shared/yaml';
import type {
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { dedupe, imageDependency, parseSubstitutedRef } from './image-ref';
import { substitute, UNRESOLVED } from './substitute';

/**
 * Compose files: `services.<name>.image`.
 *
 * - A service with `build:` builds its own image; its `image:` only names the result, so it is
 *   no dependency (Renovate does the same).
 * - `${VAR:-default}` and friends are substituted with the defaults written in the file only;
 *   `.env` files and the environment are not read. An unknown variable in the tag leaves the
 *   image unpinned; in the name it makes the entry unreadable (reported, skipped).
 * - Files without a `services:` key are read as the legacy v1 format (services at the top).
 * - YAML goes through the shared layer (src/ecosystems/shared/yaml.ts): core schema, merge keys
 *   on, bounded alias expansions, nesting and size, so an alias bomb fails the file instead of
 *   exhausting memory.
 */

function lineOf(counter: LineCounter, node: unknown): number | null {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? counter.linePos(range[0]).line : null;
}

export function extractCompose(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  const counter = new LineCounter();
  let doc: Document.Parsed;
  let data: unknown;
  try {
    const parsed = parseYaml(input.text, { lineCounter: counter, merge: true });
    if (!parsed.ok) {
      const message = `compose file ${parsed.reason}: not parsed`;
      return { dependencies: [], errors: [{ line: null, message }] };
    }
    doc = parsed.doc;
    for (const error of doc.errors.slice(0, 5)) {
      const line = error.pos ? counter.linePos(error.pos[0]).line : null;
      errors.push({ line, message: `invalid YAML: ${error.message.split('\n')[0]}` });
    }
    data = yamlToJs(doc);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      dependencies: [],
      errors: [...errors, { line: null, message: `compose file unreadable: ${message}` }],
    };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    if (errors.length === 0) errors.push({ line: null, message: 'compose file is not a mapping' });
    return { dependencies: [], errors };
  }
  const root = data as Record<string, unknown>;
  const legacy = root.services === undefined;
  const services = legacy ? root : root.services;
  if (typeof services !== 'object' || services === null || Array.isArray(services)) {
    errors.push({
      line: lineOf(counter, doc.get('services', true)),
      message: '"services" is not a mapping',
    });
    return { dependencies: [], errors };
  }

  const dependencies: ExtractedDependency[] = [];
  for (const [name, service] of Object.entries(services as Record<string, unknown>)) {
    if (typeof service !== 'object' || service === null || Array.isArray(service)) continue;
    const spec = service as Record<string, unknown>;
    if (spec.build !== undefined || spec.image === undefined || spec.image === null) continue;
    const path = legacy ? [name, 'image'] : ['services', name, 'image'];
    const node = doc.getIn(path, true);
    const line = lineOf(counter, node) ?? lineOf(counter, doc.getIn(path.slice(0, -1), true));
    if (typeof spec.image !== 'string' && typeof spec.image !== 'number') {
      errors.push({ line, message: `service ${name}: image is not a string: skipped` });
      continue;
    }
    const raw = String(spec.image);
    const ref = parseSubstitutedRef(
      substitute(raw, () => undefined, { dollarDollar: true }),
      UNRESOLVED,
    );
    if (ref === 'unknown-name') {
      errors.push({
        line,
        message: `service ${name}: image ${raw} needs a variable without a default: skipped`,
      });
      continue;
    }
    if (ref === null) {
      errors.push({ line, message: `service ${name}: ${raw} is not an image reference: skipped` });
      continue;
    }
    dependencies.push(imageDependency(ref, 'runtime', line));
  }
  return { dependencies: dedupe(dependencies), errors };
}

/** docker-compose*.yml, compose*.yaml (and the other extension of each). */
export function isComposePath(path: string): boolean {
  const base = baseOf(path);
  return /^(?:docker-)?compose(?:[.-][\w.-]*)?\.ya?ml$/i.test(base);
}

export const composeExtractor: Extractor = {
  name: 'docker/compose',
  version: 1,
  kind: 'manifest',
  matches: isComposePath,
  extract: extractCompose,
  describe: () => 'Compose file',
};

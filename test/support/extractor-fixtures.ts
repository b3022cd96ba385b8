import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  Resolution,
} from '../../src/ecosystems/types';

/**
 * What the extractor table tests share: an ecosystem's fixtures (src/ecosystems/<name>/
 * __fixtures__), inputs built from them, and the exact dependency objects the tests expect.
 */

const ECOSYSTEMS = join(import.meta.dirname, '..', '..', 'src', 'ecosystems');

/** Where the files beside the extracted one come from: none, a fixture folder, or a map. */
export type FixtureTree = string | Record<string, string> | null;

export interface ExtractorFixtures {
  /** A fixture file's text. */
  fixture(name: string): string;
  /**
   * An input for fixture `name` extracted as if it lived at `path`. `readFile` serves `tree`: a
   * fixture folder standing in for the scanned root, or a virtual tree mapping a path to a
   * fixture name ({ 'a/pom.xml': 'parent.pom.xml' }); without one, every other file is absent.
   */
  fixtureInput(name: string, path: string, tree?: FixtureTree): ExtractInput;
}

export function extractorFixtures(ecosystem: string): ExtractorFixtures {
  const dir = join(ECOSYSTEMS, ecosystem, '__fixtures__');
  const fixture = (name: string): string => readFileSync(join(dir, name), 'utf8');
  const fromFolder =
    (folder: string): ExtractInput['readFile'] =>
    (path) => {
      const file = join(dir, folder, path);
      return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : null;
    };
  const fromMap =
    (tree: Record<string, string>): ExtractInput['readFile'] =>
    (path) => {
      const name = tree[path];
      return name === undefined ? null : fixture(name);
    };
  return {
    fixture,
    fixtureInput(name, path, tree = null) {
      const readFile =
        tree === null ? () => null : typeof tree === 'string' ? fromFolder(tree) : fromMap(tree);
      return { path, text: fixture(name), readFile };
    },
  };
}

/** An ExtractedDependency whose parents (none) and source (the registry) may be left out. */
export type Expected = Omit<ExtractedDependency, 'parents' | 'source'> &
  Partial<Pick<ExtractedDependency, 'parents' | 'source'>>;

/** The exact dependency object, spelling out every field; only parents/source have defaults. */
export function dep(expected: Expected): ExtractedDependency {
  return {
    name: expected.name,
    version: expected.version,
    purl: expected.purl,
    scope: expected.scope,
    direct: expected.direct,
    resolution: expected.resolution,
    line: expected.line,
    parents: expected.parents ?? [],
    source: expected.source ?? { kind: 'registry' },
  };
}

/** The exact object a Maven extractor emits for a registry artifact (`group:artifact`). */
export function mvn(
  name: string,
  version: string | null,
  scope: DependencyScope,
  resolution: Resolution,
  line: number | null,
  direct = true,
): ExtractedDependency {
  const [group, artifact] = name.split(':');
  const purlVersion = resolution === 'resolved' && version ? `@${version}` : '';
  return dep({
    name,
    version,
    purl: `pkg:maven/${group}/${artifact}${purlVersion}`,
    scope,
    direct,
    resolution,
    line,
  });
}

/** The exact object a NuGet extractor emits for a package. */
export function nu(
  name: string,
  version: string | null,
  scope: DependencyScope,
  resolution: Resolution,
  line: number | null,
  direct = true,
  parents: string[] = [],
  source: DependencySource = { kind: 'registry' },
): ExtractedDependency {
  const pinned = resolution === 'resolved' && source.kind === 'registry' && version !== null;
  return dep({
    name,
    version,
    purl: `pkg:nuget/${name}${pinned ? `@${version}` : ''}`,
    scope,
    direct,
    resolution,
    line,
    parents,
    source,
  });
}

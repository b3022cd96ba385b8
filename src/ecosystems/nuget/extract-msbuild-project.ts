import { dedupe as dedupeDependencies } from '../dependency-list';
import { baseOf } from '../shared/tree-paths';
import type { XmlElement } from '../shared/xml';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { classifyNuGetVersion, nugetDependency } from './common';
import {
  centralVersions,
  expandProperties,
  lower,
  metadata,
  parseMsBuild,
  projectProperties,
  walkItems,
} from './msbuild';

interface Reference {
  id: string;
  version: string | null;
  versionOverride: string | null;
  privateAssets: string | null;
  global: boolean;
  line: number;
}

const PROJECT_FILE = /\.(cs|fs|vb)proj$/i;
const BUILD_FILES = new Set(['directory.build.props', 'directory.build.targets']);

function isTestProject(properties: Map<string, string>, references: Reference[]): boolean {
  if (properties.get('istestproject')?.trim().toLowerCase() === 'true') return true;
  // The test SDK is what turns a project into a test project for `dotnet test`.
  return references.some((r) => lower(r.id) === 'microsoft.net.test.sdk');
}

/**
 * Reads PackageReference / GlobalPackageReference items. `Update=` items merge their metadata
 * into earlier `Include=` items of the same id in this file; an Update with nothing to update
 * (it targets items of another file) is ignored.
 */
function readReferences(root: XmlElement, errors: ExtractionError[]): Reference[] {
  const references: Reference[] = [];
  walkItems(root, (item) => {
    const kind = lower(item.name);
    if (kind !== 'packagereference' && kind !== 'globalpackagereference') return;
    const include = metadata(item, 'Include');
    const update = include === null ? metadata(item, 'Update') : null;
    if (include === null && update === null) {
      errors.push({ line: item.line, message: `${item.name} without Include or Update skipped` });
      return;
    }
    const fields = {
      version: metadata(item, 'Version'),
      versionOverride: metadata(item, 'VersionOverride'),
      privateAssets: metadata(item, 'PrivateAssets'),
    };
    for (const raw of (include ?? update ?? '').split(';')) {
      const id = raw.trim();
      if (id.length === 0) continue;
      if (update !== null) {
        for (const reference of references) {
          if (lower(reference.id) !== lower(id)) continue;
          reference.version = fields.version ?? reference.version;
          reference.versionOverride = fields.versionOverride ?? reference.versionOverride;
          reference.privateAssets = fields.privateAssets ?? reference.privateAssets;
        }
        continue;
      }
      references.push({
        id,
        ...fields,
        global: kind === 'globalpackagereference',
        line: item.line,
      });
    }
  });
  return references;
}

function hasPrivateAssetsAll(value: string | null): boolean {
  return (value ?? '').split(';').some((part) => part.trim().toLowerCase() === 'all');
}

export interface MsBuildExtractOptions {
  /** Only GlobalPackageReference items (Directory.Packages.props). */
  globalOnly: boolean;
}

/** Shared by the project and Directory.Packages.props extractors. */
export function extractMsBuildReferences(
  input: ExtractInput,
  options: MsBuildExtractOptions,
): ExtractionResult {
  const parsed = parseMsBuild(input.text);
  const errors: ExtractionError[] = [...parsed.errors];
  if (!parsed.root) return { dependencies: [], errors };
  const references = readReferences(parsed.root, errors);
  const properties = projectProperties(input, parsed.root);
  const central = centralVersions(input, properties);
  const testProject = isTestProject(properties, references);
  const dependencies: ExtractedDependency[] = [];
  for (const reference of references) {
    if (options.globalOnly && !reference.global) continue;
    let declared = reference.versionOverride ?? reference.version;
    if (declared === null && central.enabled)
      declared = central.versions.get(lower(reference.id)) ?? null;
    const { version, resolution } = classifyNuGetVersion(
      declared === null ? null : expandProperties(declared, properties),
    );
    // Global references are development-only by definition (PrivateAssets=All implied).
    let scope: DependencyScope = 'runtime';
    if (reference.global || hasPrivateAssetsAll(reference.privateAssets)) scope = 'development';
    if (testProject) scope = 'test';
    dependencies.push(
      nugetDependency({
        name: reference.id,
        version,
        resolution,
        scope,
        direct: true,
        line: reference.line,
      }),
    );
  }
  return { dependencies: dedupeDependencies(dependencies), errors };
}

/**
 * *.csproj / *.fsproj / *.vbproj and Directory.Build.props/targets: PackageReference items with
 * Version (attribute or element), VersionOverride, central versions from Directory.Packages.props
 * (found walking up through readFile), `$(Property)` values from unconditional PropertyGroups of
 * the project and its Directory.Build.props chain. PrivateAssets=all (analyzers, build tooling)
 * and GlobalPackageReference → development; every reference of a test project → test.
 */
export function extractMsBuildProject(input: ExtractInput): ExtractionResult {
  return extractMsBuildReferences(input, { globalOnly: false });
}

export const msbuildProjectExtractor: Extractor = {
  name: 'nuget/msbuild-project',
  version: 1,
  kind: 'manifest',
  matches: (path) => {
    const file = baseOf(path);
    return PROJECT_FILE.test(file) || BUILD_FILES.has(file.toLowerCase());
  },
  extract: extractMsBuildProject,
  describe: (input) => {
    const file = baseOf(input.path);
    return PROJECT_FILE.test(file) ? `MSBuild ${file.slice(file.lastIndexOf('.'))}` : file;
  },
};

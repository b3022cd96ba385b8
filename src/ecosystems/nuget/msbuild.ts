import { ancestorDirs, baseOf, dirOf, inDir } from '../shared/tree-paths';
import { parseXml, type XmlElement } from '../shared/xml';
import type { ExtractInput, ExtractionError } from '../types';

/**
 * The slice of MSBuild evaluation the NuGet extractors need: unconditional properties, the
 * `Directory.Build.props` / `Directory.Packages.props` files MSBuild imports implicitly (nearest
 * one walking up; a further one only when the nearest imports it through GetPathOfFileAbove),
 * and `$(Property)` substitution. Conditions, targets and arbitrary imports are not evaluated.
 */
export interface MsBuildDocument {
  root: XmlElement;
  errors: ExtractionError[];
}

export function parseMsBuild(
  text: string,
): MsBuildDocument | { root: null; errors: ExtractionError[] } {
  const { root, errors } = parseXml(text);
  if (!root) return { root: null, errors };
  if (root.name.toLowerCase() !== 'project') {
    return {
      root: null,
      errors: [
        ...errors,
        { line: null, message: `not an MSBuild file: root element is <${root.name}>` },
      ],
    };
  }
  return { root, errors };
}

export function lower(name: string): string {
  return name.toLowerCase();
}

/** Attribute or child-element metadata, MSBuild style (names are case-insensitive). */
export function metadata(item: XmlElement, name: string): string | null {
  const key = lower(name);
  for (const [attr, value] of Object.entries(item.attrs)) {
    if (lower(attr) === key) return value;
  }
  const element = item.children.find((c) => lower(c.name) === key);
  return element ? element.text : null;
}

/** Replaces `$(Name)` with known properties (case-insensitive); unknown ones stay as written. */
export function expandProperties(text: string, properties: Map<string, string>): string {
  if (!text.includes('$(')) return text;
  return text.replace(/\$\(([A-Za-z_][\w.-]*)\)/g, (whole, name: string) => {
    return properties.get(lower(name)) ?? whole;
  });
}

/** Adds the unconditional properties of a document, in order, expanding earlier ones. */
export function collectProperties(root: XmlElement, into: Map<string, string>): void {
  for (const group of root.children) {
    if (lower(group.name) !== 'propertygroup' || metadataAttr(group, 'condition')) continue;
    for (const property of group.children) {
      if (metadataAttr(property, 'condition')) continue;
      into.set(lower(property.name), expandProperties(property.text, into));
    }
  }
}

function metadataAttr(element: XmlElement, name: string): string | null {
  for (const [attr, value] of Object.entries(element.attrs)) {
    if (lower(attr) === name) return value;
  }
  return null;
}

/** Does the document import the next file of the same name further up the tree? */
function importsAbove(root: XmlElement): boolean {
  return root.children.some(
    (c) =>
      lower(c.name) === 'import' &&
      /GetPathOfFileAbove|GetDirectoryNameOfFileAbove/i.test(metadataAttr(c, 'project') ?? ''),
  );
}

export interface ImportedFile {
  path: string;
  root: XmlElement;
}

/**
 * The implicit import chain for `fileName` seen from the directory of `input.path`, outermost
 * first. When the file being extracted is itself `fileName`, it is not part of the chain and the
 * walk goes above it only if it imports the next one up.
 */
export function implicitImports(input: ExtractInput, fileName: string): ImportedFile[] {
  const chain: ImportedFile[] = [];
  const dirs = ancestorDirs(dirOf(input.path));
  for (const dir of dirs) {
    const path = inDir(dir, fileName);
    const self = path === input.path;
    const text = self ? input.text : input.readFile(path);
    if (text === null) continue;
    const parsed = parseMsBuild(text);
    if (!parsed.root) break;
    if (!self) chain.unshift({ path, root: parsed.root });
    if (!importsAbove(parsed.root)) break;
  }
  return chain;
}

/** Properties visible to a project: Directory.Build.props chain, then the project itself. */
export function projectProperties(input: ExtractInput, root: XmlElement): Map<string, string> {
  const properties = new Map<string, string>([['msbuildprojectname', projectName(input.path)]]);
  for (const file of implicitImports(input, 'Directory.Build.props')) {
    collectProperties(file.root, properties);
  }
  collectProperties(root, properties);
  return properties;
}

function projectName(path: string): string {
  const file = baseOf(path);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/**
 * Central package management: PackageVersion items of the Directory.Packages.props chain (inner
 * files override outer ones), enabled by ManagePackageVersionsCentrally=true anywhere visible.
 */
export function centralVersions(
  input: ExtractInput,
  properties: Map<string, string>,
): { enabled: boolean; versions: Map<string, string> } {
  const versions = new Map<string, string>();
  const scoped = new Map(properties);
  for (const file of implicitImports(input, 'Directory.Packages.props')) {
    collectProperties(file.root, scoped);
    walkItems(file.root, (item) => {
      if (lower(item.name) !== 'packageversion') return;
      const id = metadata(item, 'Include') ?? metadata(item, 'Update');
      const version = metadata(item, 'Version');
      if (id && version) versions.set(lower(id.trim()), expandProperties(version, scoped));
    });
  }
  const flag = scoped.get('managepackageversionscentrally');
  return { enabled: flag?.trim().toLowerCase() === 'true', versions };
}

const MAX_DEPTH = 50;

/**
 * Visits item elements in document order under ItemGroup (also inside Choose/When/Otherwise);
 * targets are skipped: their items are created while building, not at restore.
 */
export function walkItems(root: XmlElement, visit: (item: XmlElement) => void, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  for (const element of root.children) {
    const name = lower(element.name);
    if (name === 'itemgroup') {
      for (const item of element.children) visit(item);
    } else if (name === 'choose' || name === 'when' || name === 'otherwise') {
      walkItems(element, visit, depth + 1);
    }
  }
}

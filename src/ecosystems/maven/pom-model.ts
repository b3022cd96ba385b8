import { child, children, childText, parseXml, type XmlElement } from '../shared/xml';
import type { ExtractionError } from '../types';

/** One `<dependency>` element as written (no interpolation yet). */
export interface PomDependency {
  groupId: string | null;
  artifactId: string | null;
  version: string | null;
  scope: string | null;
  type: string | null;
  classifier: string | null;
  optional: string | null;
  line: number;
}

export interface PomParent {
  groupId: string | null;
  artifactId: string | null;
  version: string | null;
  /** null = element absent (Maven's default `../pom.xml`); '' = explicitly empty (no lookup). */
  relativePath: string | null;
}

/** The parts of a POM the extractor needs; profiles are kept only when active by default. */
export interface PomModel {
  /** Line of the project's own `<artifactId>` (its coordinates), null when absent. */
  line: number | null;
  groupId: string | null;
  artifactId: string | null;
  version: string | null;
  parent: PomParent | null;
  properties: Map<string, string>;
  dependencyManagement: PomDependency[];
  dependencies: PomDependency[];
}

export interface PomParseResult {
  model: PomModel | null;
  errors: ExtractionError[];
}

function readDependency(element: XmlElement): PomDependency {
  return {
    groupId: childText(element, 'groupId'),
    artifactId: childText(element, 'artifactId'),
    version: childText(element, 'version'),
    scope: childText(element, 'scope'),
    type: childText(element, 'type'),
    classifier: childText(element, 'classifier'),
    optional: childText(element, 'optional'),
    line: element.line,
  };
}

function readDependencies(container: XmlElement | undefined): PomDependency[] {
  const list = container ? child(container, 'dependencies') : undefined;
  return list ? children(list, 'dependency').map(readDependency) : [];
}

function readProperties(container: XmlElement | undefined, into: Map<string, string>): void {
  const properties = container ? child(container, 'properties') : undefined;
  if (!properties) return;
  for (const property of properties.children) into.set(property.name, property.text);
}

/** Profiles switched on without any command-line flag or environment condition. */
function activeByDefault(profile: XmlElement): boolean {
  const activation = child(profile, 'activation');
  return activation !== undefined && childText(activation, 'activeByDefault') === 'true';
}

export function parsePom(text: string): PomParseResult {
  const { root, errors } = parseXml(text);
  if (!root) return { model: null, errors };
  if (root.name !== 'project') {
    return {
      model: null,
      errors: [...errors, { line: null, message: `not a POM: root element is <${root.name}>` }],
    };
  }
  const parentElement = child(root, 'parent');
  const relativePathElement = parentElement ? child(parentElement, 'relativePath') : undefined;
  const properties = new Map<string, string>();
  readProperties(root, properties);
  const dependencies = readDependencies(root);
  const dependencyManagement = readDependencies(child(root, 'dependencyManagement'));
  const profiles = child(root, 'profiles');
  for (const profile of profiles ? children(profiles, 'profile') : []) {
    if (!activeByDefault(profile)) continue;
    readProperties(profile, properties);
    dependencies.push(...readDependencies(profile));
    dependencyManagement.push(...readDependencies(child(profile, 'dependencyManagement')));
  }
  return {
    model: {
      line: child(root, 'artifactId')?.line ?? null,
      groupId: childText(root, 'groupId'),
      artifactId: childText(root, 'artifactId'),
      version: childText(root, 'version'),
      parent: parentElement
        ? {
            groupId: childText(parentElement, 'groupId'),
            artifactId: childText(parentElement, 'artifactId'),
            version: childText(parentElement, 'version'),
            relativePath: relativePathElement ? relativePathElement.text : null,
          }
        : null,
      properties,
      dependencyManagement,
      dependencies,
    },
    errors,
  };
}

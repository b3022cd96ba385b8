import { describe, expect, it } from 'vitest';
import { extractorFixtures, mvn } from '../../../test/support/extractor-fixtures';
import { extractPom, pomExtractor } from './extract-pom';

const { fixtureInput } = extractorFixtures('maven');

/** The pom's own coordinates: scope self, never direct, the project's own path. */
const own = (name: string, version: string, line: number) => ({
  ...mvn(name, version, 'self', 'resolved', line, false),
  source: { kind: 'path' as const, path: '.' },
});

describe('maven/pom', () => {
  it('claims pom.xml files only', () => {
    expect(pomExtractor.matches('pom.xml')).toBe(true);
    expect(pomExtractor.matches('services/api/pom.xml')).toBe(true);
    expect(pomExtractor.matches('pom.xml.bak')).toBe(false);
    expect(pomExtractor.matches('.flattened-pom.xml')).toBe(false);
  });

  it('properties, dependencyManagement, scopes, ranges, BOMs; plugins and inactive profiles skipped', () => {
    expect(extractPom(fixtureInput('properties-and-scopes.pom.xml', 'pom.xml'))).toEqual({
      dependencies: [
        // the pom's own coordinates: the project itself
        own('com.example:shop', '2.1.0', 5),
        // ${jackson.databind.version} → ${jackson.version} → 2.17.1 (nested properties)
        mvn('com.fasterxml.jackson.core:jackson-databind', '2.17.1', 'runtime', 'resolved', 34),
        // version and scope both from dependencyManagement
        mvn('org.slf4j:slf4j-api', '2.0.13', 'runtime', 'resolved', 39),
        mvn('com.example:shop-core', '2.1.0', 'runtime', 'resolved', 43),
        // managed by the imported junit-bom, whose content is not in the tree
        mvn('org.junit.jupiter:junit-jupiter', null, 'test', 'unpinned', 48),
        mvn('jakarta.servlet:jakarta.servlet-api', '6.0.0', 'build', 'resolved', 53),
        mvn('com.sun:tools', '1.8', 'build', 'resolved', 59),
        mvn('com.h2database:h2', '[2.2,3.0)', 'optional', 'declared', 66),
        // [2.16.1] is a hard requirement for exactly one version
        mvn('commons-io:commons-io', '2.16.1', 'runtime', 'resolved', 72),
        mvn('org.example:uses-loop', `\${loop.a}`, 'runtime', 'declared', 77),
        mvn('org.example:from-env', `\${env.LIB_VERSION}`, 'runtime', 'declared', 82),
        // the sources-classifier copy of jackson-databind (line 92) is an exact duplicate
        mvn('org.postgresql:postgresql', '42.7.3', 'runtime', 'resolved', 124),
        mvn('org.junit:junit-bom', '5.10.2', 'build', 'resolved', 23),
      ],
      errors: [{ line: 87, message: 'dependency without groupId or artifactId skipped' }],
    });
  });

  it('child module: parent found through the default ../pom.xml, child properties win', () => {
    const input = fixtureInput('multi-module-child.pom.xml', 'service/pom.xml', {
      'pom.xml': 'multi-module-parent.pom.xml',
    });
    expect(extractPom(input)).toEqual({
      dependencies: [
        // groupId and version inherited from <parent>
        own('com.example:service', '1.4.0-SNAPSHOT', 9),
        mvn('com.google.guava:guava', '33.2.0-jre', 'runtime', 'resolved', 17),
        mvn('io.netty:netty-handler', '4.1.111.Final', 'runtime', 'resolved', 21),
        mvn('org.assertj:assertj-core', '3.26.0', 'test', 'resolved', 25),
        // managed by spring-boot-starter-parent, which lives in a repository, not in the tree
        mvn('org.springframework.boot:spring-boot-starter-web', null, 'runtime', 'unpinned', 29),
        // groupId and version inherited from the parent
        mvn('com.example:platform-api', '1.4.0-SNAPSHOT', 'runtime', 'resolved', 33),
      ],
      errors: [],
    });
  });

  it('child module without its parent in the tree: versions unpinned, not an error', () => {
    const result = extractPom(fixtureInput('multi-module-child.pom.xml', 'service/pom.xml'));
    expect(result.errors).toEqual([]);
    expect(result.dependencies.map((d) => [d.name, d.version, d.resolution])).toEqual([
      ['com.example:service', '1.4.0-SNAPSHOT', 'resolved'],
      ['com.google.guava:guava', null, 'unpinned'],
      ['io.netty:netty-handler', null, 'unpinned'],
      ['org.assertj:assertj-core', null, 'unpinned'],
      ['org.springframework.boot:spring-boot-starter-web', null, 'unpinned'],
      ['com.example:platform-api', '1.4.0-SNAPSHOT', 'resolved'],
    ]);
  });

  it('a parent with other coordinates at ../pom.xml is not used', () => {
    const input = fixtureInput('multi-module-child.pom.xml', 'service/pom.xml', {
      'pom.xml': 'properties-and-scopes.pom.xml',
    });
    expect(extractPom(input).dependencies[1]).toEqual(
      mvn('com.google.guava:guava', null, 'runtime', 'unpinned', 17),
    );
  });

  it('parent POM with only dependencyManagement reports just its imported BOMs', () => {
    expect(extractPom(fixtureInput('multi-module-parent.pom.xml', 'pom.xml'))).toEqual({
      dependencies: [
        own('com.example:platform-parent', '1.4.0-SNAPSHOT', 11),
        mvn('io.netty:netty-bom', '4.1.110.Final', 'build', 'resolved', 38),
      ],
      errors: [],
    });
  });

  it('stops at a parent cycle and says so', () => {
    const input = fixtureInput('parent-cycle.pom.xml', 'a/pom.xml', {
      'b/pom.xml': 'parent-cycle.pom.xml',
    });
    expect(extractPom(input)).toEqual({
      dependencies: [
        own('com.example:loop', '1', 11),
        mvn('org.yaml:snakeyaml', '2.2', 'runtime', 'resolved', 14),
      ],
      errors: [{ line: null, message: 'parent POM cycle through b/pom.xml; chain cut there' }],
    });
  });

  it('an unparseable in-tree parent is reported, the child still extracts', () => {
    const input = fixtureInput('multi-module-child.pom.xml', 'service/pom.xml', {
      'pom.xml': 'doctype-entity.pom.xml',
    });
    const result = extractPom(input);
    expect(result.dependencies).toHaveLength(6);
    expect(result.errors).toEqual([
      {
        line: null,
        message:
          'parent POM pom.xml could not be parsed; its properties and dependencyManagement are not applied',
      },
    ]);
  });

  it('refuses DOCTYPE and entity declarations (billion laughs, XXE)', () => {
    expect(extractPom(fixtureInput('doctype-entity.pom.xml', 'pom.xml'))).toEqual({
      dependencies: [],
      errors: [
        { line: null, message: 'DOCTYPE/ENTITY declarations are not allowed; file not parsed' },
      ],
    });
  });

  it('truncated file: one whole-file error, the complete entries before the cut survive', () => {
    expect(extractPom(fixtureInput('truncated.pom.xml', 'pom.xml'))).toEqual({
      dependencies: [
        own('com.example:shop', '2.1.0', 5),
        mvn('com.fasterxml.jackson.core:jackson-databind', '2.17.1', 'runtime', 'resolved', 34),
        mvn('org.slf4j:slf4j-api', '2.0.13', 'runtime', 'resolved', 39),
        mvn('com.example:shop-core', '2.1.0', 'runtime', 'resolved', 43),
        mvn('org.junit:junit-bom', '5.10.2', 'build', 'resolved', 23),
      ],
      errors: [
        {
          line: null,
          message:
            'malformed XML: unclosed <project>, <dependencies>, <dependency>, <artifactId> (truncated file?)',
        },
        { line: 48, message: 'dependency without groupId or artifactId skipped' },
      ],
    });
  });

  it.each([
    ['not XML at all', 'just text', "malformed XML at line 1: char 'j' is not expected."],
    ['an empty file', '', 'malformed XML at line 1: Start tag expected.'],
    [
      'another XML document',
      '<settings><servers/></settings>',
      'not a POM: root element is <settings>',
    ],
  ])('%s gives one whole-file error', (_label, text, message) => {
    expect(extractPom({ path: 'pom.xml', text, readFile: () => null })).toEqual({
      dependencies: [],
      errors: [{ line: null, message }],
    });
  });

  it('the own version as an unresolved property (a revision property) is unpinned; unresolved coordinates are not reported', () => {
    const pom = (coordinates: string) =>
      extractPom({
        path: 'pom.xml',
        text: `<project><modelVersion>4.0.0</modelVersion>\n${coordinates}\n</project>`,
        readFile: () => null,
      }).dependencies;
    expect(
      pom(`<groupId>org.acme</groupId><artifactId>lib</artifactId><version>\${revision}</version>`),
    ).toEqual([
      {
        ...own('org.acme:lib', '', 2),
        version: null,
        resolution: 'unpinned',
        purl: 'pkg:maven/org.acme/lib',
      },
    ]);
    expect(
      pom(`<groupId>\${org}</groupId><artifactId>lib</artifactId><version>1</version>`),
    ).toEqual([]);
    expect(pom('<artifactId>lib</artifactId><version>1</version>')).toEqual([]);
  });

  it('guards deep nesting without throwing', () => {
    const text = `<project>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</project>`;
    expect(extractPom({ path: 'pom.xml', text, readFile: () => null })).toEqual({
      dependencies: [],
      errors: [{ line: null, message: 'malformed XML: Maximum nested tags exceeded' }],
    });
  });
});

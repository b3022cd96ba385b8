import { describe, expect, it } from 'vitest';
import { extractorFixtures, mvn } from '../../../test/support/extractor-fixtures';
import {
  catalogAccessor,
  extractGradleCatalog,
  gradleCatalogExtractor,
} from './extract-gradle-catalog';

const { fixtureInput } = extractorFixtures('maven');

describe('maven/gradle-catalog', () => {
  it('claims version catalogs in a gradle/ directory', () => {
    expect(gradleCatalogExtractor.matches('gradle/libs.versions.toml')).toBe(true);
    expect(gradleCatalogExtractor.matches('build-logic/gradle/tools.versions.toml')).toBe(true);
    expect(gradleCatalogExtractor.matches('libs.versions.toml')).toBe(false);
    expect(gradleCatalogExtractor.matches('gradle/wrapper/gradle-wrapper.properties')).toBe(false);
  });

  it('maps aliases to Gradle accessors', () => {
    expect(catalogAccessor('junit_jupiter-params')).toBe('junit.jupiter.params');
    expect(catalogAccessor('groovy.JSON')).toBe('groovy.json');
  });

  it('libraries in every notation, version refs and rich versions; plugins ignored', () => {
    expect(
      extractGradleCatalog(fixtureInput('all-forms.versions.toml', 'gradle/libs.versions.toml')),
    ).toEqual({
      dependencies: [
        mvn('org.slf4j:slf4j-api', '1.7.36', 'runtime', 'resolved', 10),
        mvn('com.squareup.okhttp3:okhttp', '4.12.0', 'runtime', 'resolved', 11),
        // { strictly = "2.17.1" }
        mvn('com.fasterxml.jackson:jackson-bom', '2.17.1', 'runtime', 'resolved', 12),
        // { require = "5.10.2", prefer = "5.10.3" }: require wins
        mvn('org.junit.jupiter:junit-jupiter', '5.10.2', 'runtime', 'resolved', 13),
        mvn('org.junit.jupiter:junit-jupiter-params', '5.10.2', 'runtime', 'resolved', 14),
        // strictly a range with a preferred version inside it
        mvn('io.netty:netty-handler', '4.1.110.Final', 'runtime', 'resolved', 15),
        mvn('com.google.guava:guava', '33.2.0-jre', 'runtime', 'resolved', 16),
        mvn('org.apache.commons:commons-lang3', null, 'runtime', 'unpinned', 17),
        // "2.2!!" is strictly 2.2
        mvn('org.yaml:snakeyaml', '2.2', 'runtime', 'resolved', 18),
      ],
      errors: [{ line: 19, message: 'library broken: missing module or group/name' }],
    });
  });

  it('invalid TOML is one whole-file error', () => {
    expect(
      extractGradleCatalog(fixtureInput('broken.versions.toml', 'gradle/libs.versions.toml')),
    ).toEqual({
      dependencies: [],
      errors: [{ line: null, message: 'invalid TOML at line 3: illegal character in key' }],
    });
  });

  // The catalogue goes through the shared TOML layer (src/ecosystems/shared/toml.ts), so it gets
  // the same hostile-input limits as Cargo and PyPI files: these two fail with plain smol-toml.
  it('drops prototype keys instead of reading them as aliases or versions', () => {
    expect(
      extractGradleCatalog(fixtureInput('hostile-keys.versions.toml', 'gradle/libs.versions.toml')),
    ).toEqual({
      dependencies: [mvn('org.slf4j:slf4j-api', '1.7.36', 'runtime', 'resolved', 9)],
      errors: [],
    });
  });

  it('refuses inline nesting beyond the shared depth limit as one whole-file error', () => {
    expect(
      extractGradleCatalog(fixtureInput('deep-nesting.versions.toml', 'gradle/libs.versions.toml')),
    ).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message:
            'invalid TOML at line 3: document contains excessively nested structures. aborting.',
        },
      ],
    });
  });
});

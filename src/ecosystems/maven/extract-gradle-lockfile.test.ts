import { describe, expect, it } from 'vitest';
import { extractorFixtures, mvn } from '../../../test/support/extractor-fixtures';
import {
  extractGradleLockfile,
  gradleLockfileExtractor,
  gradleLockScope,
} from './extract-gradle-lockfile';

const { fixtureInput } = extractorFixtures('maven');

describe('maven/gradle-lockfile', () => {
  it('claims gradle.lockfile, build-logic lockfiles and legacy dependency-locks', () => {
    expect(gradleLockfileExtractor.matches('gradle.lockfile')).toBe(true);
    expect(gradleLockfileExtractor.matches('app/gradle.lockfile')).toBe(true);
    expect(gradleLockfileExtractor.matches('settings-gradle.lockfile')).toBe(true);
    expect(
      gradleLockfileExtractor.matches('gradle/dependency-locks/compileClasspath.lockfile'),
    ).toBe(true);
    expect(gradleLockfileExtractor.matches('other.lockfile')).toBe(false);
    expect(gradleLockfileExtractor.matches('gradle.properties')).toBe(false);
  });

  it.each([
    ['compileClasspath', 'runtime'],
    ['runtimeClasspath', 'runtime'],
    ['debugRuntimeClasspath', 'runtime'],
    ['testCompileClasspath', 'test'],
    ['latestDepForkedTestRuntimeClasspath', 'test'],
    ['annotationProcessor', 'build'],
    ['spotbugs', 'build'],
    // "latest" contains "test" but is not a test configuration
    ['latestMuleServices', 'build'],
  ])('configuration %s → %s', (configuration, scope) => {
    expect(gradleLockScope(configuration)).toBe(scope);
  });

  it('scopes from configurations, directness from the sibling build.gradle, bad line skipped', () => {
    const input = fixtureInput('configurations.lockfile', 'gradle.lockfile', {
      'build.gradle': 'lockfile-sibling.build.gradle',
    });
    expect(extractGradleLockfile(input)).toEqual({
      dependencies: [
        mvn('com.google.code.findbugs:jsr305', '3.0.2', 'runtime', 'resolved', 4, false),
        mvn('com.google.guava:guava', '33.2.0-jre', 'runtime', 'resolved', 5),
        mvn('com.google.auto.service:auto-service', '1.1.1', 'build', 'resolved', 6, false),
        mvn('junit:junit', '4.13.2', 'test', 'resolved', 7),
        mvn('org.hamcrest:hamcrest-core', '1.3', 'test', 'resolved', 8, false),
        mvn('org.slf4j:slf4j-api', '1.7.30', 'runtime', 'resolved', 10),
        // same module in a tool configuration: not the declared dependency
        mvn('org.slf4j:slf4j-api', '2.0.13', 'build', 'resolved', 11, false),
        mvn('org.mule.services:mule-service-http', '1.5.21', 'build', 'resolved', 12, false),
      ],
      errors: [
        { line: 9, message: 'not a group:artifact:version entry: this line is not a coordinate' },
      ],
    });
  });

  it('without a build script nothing is marked direct', () => {
    const result = extractGradleLockfile(
      fixtureInput('configurations.lockfile', 'gradle.lockfile'),
    );
    expect(result.dependencies.filter((d) => d.direct)).toEqual([]);
    expect(result.dependencies).toHaveLength(8);
  });

  it('legacy per-configuration lockfile takes its scope from the file name', () => {
    const input = fixtureInput(
      'legacy-compileClasspath.lockfile',
      'gradle/dependency-locks/compileClasspath.lockfile',
    );
    expect(extractGradleLockfile(input)).toEqual({
      dependencies: [
        mvn('com.google.guava:guava', '31.1-jre', 'runtime', 'resolved', 2, false),
        mvn('com.google.guava:failureaccess', '1.0.1', 'runtime', 'resolved', 3, false),
      ],
      errors: [],
    });
  });

  it('settings-gradle.lockfile locks build logic: scope build', () => {
    const result = extractGradleLockfile({
      path: 'settings-gradle.lockfile',
      text: 'com.gradle:develocity-gradle-plugin:3.17.4=classpath\nempty=\n',
      readFile: () => null,
    });
    expect(result).toEqual({
      dependencies: [
        mvn('com.gradle:develocity-gradle-plugin', '3.17.4', 'build', 'resolved', 1, false),
      ],
      errors: [],
    });
  });
});

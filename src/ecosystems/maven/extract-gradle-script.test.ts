import { describe, expect, it } from 'vitest';
import { extractorFixtures, mvn } from '../../../test/support/extractor-fixtures';
import {
  extractGradleScript,
  gradleConfigurationScope,
  gradleScriptExtractor,
} from './extract-gradle-script';

const { fixtureInput } = extractorFixtures('maven');

describe('maven/gradle-script', () => {
  it('claims build.gradle and build.gradle.kts', () => {
    expect(gradleScriptExtractor.matches('build.gradle')).toBe(true);
    expect(gradleScriptExtractor.matches('app/build.gradle.kts')).toBe(true);
    expect(gradleScriptExtractor.matches('settings.gradle.kts')).toBe(false);
    expect(gradleScriptExtractor.matches('gradle/libs.versions.toml')).toBe(false);
  });

  it.each([
    ['implementation', 'runtime'],
    ['api', 'runtime'],
    ['runtimeOnly', 'runtime'],
    ['debugImplementation', 'runtime'],
    ['compileOnly', 'build'],
    ['compileOnlyApi', 'build'],
    ['annotationProcessor', 'build'],
    ['kapt', 'build'],
    ['ksp', 'build'],
    ['classpath', 'build'],
    ['testImplementation', 'test'],
    ['androidTestImplementation', 'test'],
    ['latestDepForkedTestImplementation', 'test'],
    ['developmentOnly', 'development'],
    ['checkstyle', 'build'],
  ])('configuration %s → %s', (configuration, scope) => {
    expect(gradleConfigurationScope(configuration)).toBe(scope);
  });

  it('Groovy DSL: string and map notation, platform BOMs, closures, comments, blocks', () => {
    expect(
      extractGradleScript(fixtureInput('groovy-notations.gradle', 'app/build.gradle')),
    ).toEqual({
      dependencies: [
        mvn('com.android.tools.build:gradle', '8.4.1', 'build', 'resolved', 3),
        mvn('org.springframework.boot:spring-boot-starter-web', null, 'runtime', 'unpinned', 22),
        mvn(
          'com.fasterxml.jackson.core:jackson-databind',
          `\${jacksonVersion}`,
          'runtime',
          'declared',
          23,
        ),
        mvn('com.google.guava:guava', '33.2.0-jre', 'runtime', 'resolved', 24),
        mvn('org.apache.commons:commons-lang3', '3.14.0', 'runtime', 'resolved', 24),
        mvn('org.projectlombok:lombok', '1.18.32', 'build', 'resolved', 25),
        mvn('org.postgresql:postgresql', '42.7.3', 'runtime', 'resolved', 27),
        mvn('org.junit:junit-bom', '5.10.2', 'build', 'resolved', 30),
        mvn('org.junit.jupiter:junit-jupiter', null, 'test', 'unpinned', 31),
        mvn('org.mule.runtime:mule-core', `\${muleVersion}`, 'test', 'declared', 32),
        mvn('org.mockito:mockito-core', '5.+', 'test', 'declared', 33),
        mvn('org.bouncycastle:bcprov-jdk18on', '1.78', 'runtime', 'resolved', 38),
        mvn('io.netty:netty-transport-native-epoll', '4.1.110.Final', 'runtime', 'resolved', 39),
        mvn('com.google.dagger:dagger-compiler', '2.51', 'build', 'resolved', 40),
        mvn('org.springframework.boot:spring-boot-devtools', null, 'development', 'unpinned', 41),
        mvn('com.h2database:h2', '2.2.224', 'runtime', 'resolved', 43),
        mvn('com.puppycrawl.tools:checkstyle', '10.17.0', 'build', 'resolved', 49),
      ],
      errors: [],
    });
  });

  it('Kotlin DSL: catalog accessors, bundles, named arguments, string configurations', () => {
    const input = fixtureInput('kotlin-catalog.gradle.kts', 'lib/build.gradle.kts', {
      'gradle/libs.versions.toml': 'all-forms.versions.toml',
    });
    expect(extractGradleScript(input)).toEqual({
      dependencies: [
        mvn('org.slf4j:slf4j-api', '1.7.36', 'runtime', 'resolved', 7),
        mvn('com.squareup.okhttp3:okhttp', '4.12.0', 'runtime', 'resolved', 8),
        mvn('com.fasterxml.jackson:jackson-bom', '2.17.1', 'build', 'resolved', 9),
        mvn('org.junit.jupiter:junit-jupiter', '5.10.2', 'test', 'resolved', 10),
        mvn('org.junit.jupiter:junit-jupiter-params', '5.10.2', 'test', 'resolved', 10),
        mvn('org.msgpack:msgpack-core', '0.8.20', 'test', 'resolved', 12),
        mvn('com.squareup.okhttp3:mockwebserver', '[3.0,3.12.12]', 'test', 'declared', 13),
        mvn('org.msgpack:msgpack-core', '0.9.8', 'test', 'resolved', 18),
        mvn('org.jetbrains.kotlin:kotlin-stdlib', null, 'runtime', 'unpinned', 19),
      ],
      errors: [],
    });
  });

  it('catalog accessors without a catalog in the tree are skipped quietly', () => {
    const result = extractGradleScript(
      fixtureInput('kotlin-catalog.gradle.kts', 'lib/build.gradle.kts'),
    );
    expect(result.errors).toEqual([]);
    expect(result.dependencies.map((d) => d.name)).toEqual([
      'org.msgpack:msgpack-core',
      'com.squareup.okhttp3:mockwebserver',
      'org.msgpack:msgpack-core',
      'org.jetbrains.kotlin:kotlin-stdlib',
    ]);
    expect(result.dependencies[1]?.version).toBe(`\${libs.versions.okhttp.legacy.get()}`);
  });

  it('an unterminated dependencies block is reported, what precedes the cut survives', () => {
    const result = extractGradleScript({
      path: 'build.gradle',
      text: "dependencies {\n  implementation 'a.b:c:1.0'\n  implementation('d.e:f:2.0'",
      readFile: () => null,
    });
    expect(result).toEqual({
      dependencies: [mvn('a.b:c', '1.0', 'runtime', 'resolved', 2)],
      errors: [{ line: 1, message: 'unterminated dependencies block' }],
    });
  });

  it('stays linear on hostile input', () => {
    const text = `dependencies {\n${"implementation('a:b:1' ".repeat(20000)}\n${'('.repeat(50000)}`;
    const started = performance.now();
    const result = extractGradleScript({ path: 'build.gradle', text, readFile: () => null });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.errors).toHaveLength(1);
  });
});

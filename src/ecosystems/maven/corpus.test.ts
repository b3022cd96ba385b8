import { expect, it } from 'vitest';
import { corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { maven } from './index';

const run = corpusRunner(maven);

describeCorpus('Maven', () => {
  // gradle.lockfile: one entry per locked group:artifact:version line, exactly as SOURCES.md.
  it.each([
    ['dd-trace-java/communication/gradle.lockfile', 106],
    ['dd-trace-java/dd-java-agent/instrumentation/aws-java/aws-java-sdk-2.2/gradle.lockfile', 365],
    ['dd-trace-java/dd-java-agent/instrumentation/mule-4.5/gradle.lockfile', 842],
  ])('%s: %i locked entries, no errors', (path, count) => {
    const { extractor, result, ms } = run(path);
    expect(extractor.name).toBe('maven/gradle-lockfile');
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(count);
    expect(result.dependencies.every((d) => d.resolution === 'resolved')).toBe(true);
    expect(ms).toBeLessThan(1000);
  });

  // SOURCES.md counts every <dependency> element of a POM; the extractor reports the project's
  // dependencies plus imported BOMs. Deliberate differences:
  // - spring-petclinic 26 = 24 project dependencies + 2 plugin dependencies (plugins are build
  //   tooling, not dependencies);
  // - dependency-track parent 74 = 73 dependencyManagement entries + 1 plugin dependency; managed
  //   entries are version constraints, not dependencies, except the 18 imported BOMs, reported
  //   with scope build;
  // - apiserver 94 = 90 dependencies + 1 imported BOM + 1 plugin dependency + 2 in the opt-in
  //   `dev-services` profile (only profiles active by default are read) → 91.
  // Each POM also reports its own coordinates, once, as the project itself (scope self).
  it.each([
    ['spring-petclinic/pom.xml', 24, 'org.springframework.samples:spring-petclinic'],
    ['dependency-track/pom.xml', 18, 'org.dependencytrack:dependency-track-parent'],
    ['dependency-track/apiserver/pom.xml', 91, 'org.dependencytrack:apiserver'],
  ])('%s: %i dependencies and %s itself, no errors', (path, count, own) => {
    const { extractor, result, ms } = run(path);
    expect(extractor.name).toBe('maven/pom');
    expect(result.errors).toEqual([]);
    expect(result.dependencies.filter((d) => d.scope !== 'self')).toHaveLength(count);
    expect(result.dependencies.filter((d) => d.scope === 'self').map((d) => d.name)).toEqual([own]);
    expect(ms).toBeLessThan(1000);
  });

  it('apiserver resolves versions through the in-tree parent POM', () => {
    const deps = run('dependency-track/apiserver/pom.xml').result.dependencies;
    const byName = new Map(deps.map((d) => [d.name, d]));
    // managed in ../pom.xml via ${lib.cpe-parser.version}
    expect(byName.get('us.springett:cpe-parser')?.version).toBe('3.0.1');
    // ${project.version} inherited from the parent's <version>
    expect(byName.get('org.dependencytrack:api')?.version).toBe('5.1.0-SNAPSHOT');
    // managed only by an imported BOM (jdbi3-bom), whose content is not in the tree
    expect(byName.get('org.jdbi:jdbi3-core')?.resolution).toBe('unpinned');
  });

  // No SOURCES.md counts for scripts and catalogs: these pin what the extractor finds today.
  it.each([
    ['spring-petclinic/build.gradle', 25],
    ['dd-trace-java/build.gradle.kts', 0],
    ['dd-trace-java/communication/build.gradle.kts', 10],
    ['dd-trace-java/dd-java-agent/instrumentation/aws-java/aws-java-sdk-2.2/build.gradle', 37],
    ['dd-trace-java/dd-java-agent/instrumentation/mule-4.5/build.gradle', 28],
    ['dd-trace-java/gradle/libs.versions.toml', 68],
  ])('%s: %i declarations, no errors', (path, count) => {
    const { result, ms } = run(path);
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(count);
    expect(ms).toBeLessThan(1000);
  });
});

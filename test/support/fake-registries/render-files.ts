import { type FakePackage, hex } from './model';
import { type FakeResponse, json, type RenderContext } from './render-json';

/**
 * File-layout registries: a Maven 2 repository (maven-metadata.xml, POMs with Last-Modified) and
 * a Go module proxy (list, .info, .mod, @latest; `!x` case-encoding).
 */

const xml = (body: string, lastModified?: string): FakeResponse => ({
  status: 200,
  headers: {
    'content-type': 'text/xml',
    ...(lastModified ? { 'last-modified': new Date(lastModified).toUTCString() } : {}),
  },
  body,
});

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---------------------------------------------------------------- Maven

export function renderMaven(ctx: RenderContext): FakeResponse | null {
  const parts = ctx.path.split('/').filter(Boolean);
  const notFound: FakeResponse = {
    status: 404,
    headers: { 'content-type': 'text/plain' },
    body: 'Not Found',
  };
  if (parts.at(-1) === 'maven-metadata.xml') {
    const artifact = parts.at(-2);
    const group = parts.slice(0, -2).join('.');
    const pkg = artifact ? ctx.find(`${group}:${artifact}`) : undefined;
    if (!pkg) return notFound;
    const release = [...pkg.versions].reverse().find((x) => !/[a-z]/i.test(x.version));
    const newest = pkg.versions.at(-1)!;
    const stamp = newest.publishedAt.replace(/[-:T]/g, '').slice(0, 14);
    return xml(
      `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>${group}</groupId>
  <artifactId>${artifact}</artifactId>
  <versioning>
    <latest>${newest.version}</latest>
    <release>${release?.version ?? newest.version}</release>
    <versions>
${pkg.versions.map((x) => `      <version>${xmlEscape(x.version)}</version>`).join('\n')}
    </versions>
    <lastUpdated>${stamp}</lastUpdated>
  </versioning>
</metadata>
`,
      newest.publishedAt,
    );
  }
  const file = parts.at(-1) ?? '';
  const version = parts.at(-2);
  const artifact = parts.at(-3);
  const group = parts.slice(0, -3).join('.');
  if (!version || !artifact || file !== `${artifact}-${version}.pom`) return notFound;
  const pkg = ctx.find(`${group}:${artifact}`);
  const entry = pkg?.versions.find((x) => x.version === version);
  if (!pkg || !entry) return notFound;
  return xml(renderPom(pkg, group, artifact, version), entry.publishedAt);
}

function renderPom(pkg: FakePackage, group: string, artifact: string, version: string): string {
  const [pg, pa, pv] = pkg.mavenParent?.split(':') ?? [];
  const parent = pg
    ? `  <parent>\n    <groupId>${pg}</groupId>\n    <artifactId>${pa}</artifactId>\n    <version>${pv}</version>\n  </parent>\n`
    : '';
  const licences = pkg.licence
    ? `  <licenses>\n    <license>\n      <name>${xmlEscape(pkg.licence)}</name>\n      <url>https://licences.example.org/${encodeURIComponent(pkg.licence)}</url>\n      <distribution>repo</distribution>\n    </license>\n  </licenses>\n`
    : '';
  const [toGroup, toArtifact] = pkg.successor?.split(':') ?? [];
  const relocation = pkg.successor
    ? `  <distributionManagement>\n    <relocation>\n      <groupId>${toGroup}</groupId>\n      <artifactId>${toArtifact}</artifactId>\n      <message>${xmlEscape(pkg.deprecated ?? '')}</message>\n    </relocation>\n  </distributionManagement>\n`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <modelVersion>4.0.0</modelVersion>
${parent}  <groupId>${group}</groupId>
  <artifactId>${artifact}</artifactId>
  <version>${xmlEscape(version)}</version>
  <packaging>jar</packaging>
  <name>${xmlEscape(artifact)}</name>
  <description>${xmlEscape(pkg.description)}</description>
  <url>${xmlEscape(pkg.homepage)}</url>
${licences}  <developers>
${pkg.maintainers.map((m) => `    <developer>\n      <id>${xmlEscape(m)}</id>\n      <name>${xmlEscape(m)}</name>\n    </developer>`).join('\n')}
  </developers>
  <scm>
    <connection>scm:git:${xmlEscape(pkg.repositoryUrl)}.git</connection>
    <url>${xmlEscape(pkg.repositoryUrl)}</url>
  </scm>
${relocation}  <dependencies>
    <dependency>
      <groupId>org.example</groupId>
      <artifactId>other</artifactId>
      <version>1.0</version>
    </dependency>
  </dependencies>
</project>
`;
}

// ---------------------------------------------------------------- Go module proxy

/** `@v/list` names tagged versions only: pseudo-versions are never listed. */
function listBody(pkg: FakePackage): string {
  const tagged = pkg.versions
    .map((x) => x.version)
    .filter((x) => !/-(?:0\.)?\d{14}-[0-9a-f]{12}$/.test(x));
  return tagged.length === 0 ? '' : `${tagged.join('\n')}\n`;
}

/** x/mod/module.UnescapePath. */
function unescapePath(path: string): string | null {
  if (/[A-Z]/.test(path)) return null;
  return path.replace(/!([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function renderGo(ctx: RenderContext): FakeResponse | null {
  const notFound = (what: string): FakeResponse => ({
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `not found: ${what}: 404 Not Found`,
  });
  const latestAt = ctx.path.endsWith('/@latest');
  const marker = ctx.path.indexOf('/@v/');
  const escaped = latestAt
    ? ctx.path.slice(1, -'/@latest'.length)
    : marker > 0
      ? ctx.path.slice(1, marker)
      : null;
  if (escaped === null) return null;
  const modulePath = unescapePath(escaped);
  const pkg = modulePath ? ctx.find(modulePath) : undefined;
  if (!modulePath || !pkg) return notFound(`module ${escaped}`);
  const info = (version: string) => {
    const entry = pkg.versions.find((x) => x.version === version)!;
    return {
      Version: entry.version,
      Time: entry.publishedAt,
      Origin: {
        VCS: 'git',
        URL: pkg.repositoryUrl,
        Ref: `refs/tags/${entry.version}`,
        Hash: hex(entry.version, 40),
      },
    };
  };
  if (latestAt) {
    const newest =
      [...pkg.versions].reverse().find((x) => !x.version.includes('-')) ?? pkg.versions.at(-1)!;
    return json(info(newest.version));
  }
  const rest = ctx.path.slice(marker + 4);
  if (rest === 'list') {
    return {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: listBody(pkg),
    };
  }
  const file = /^(.+)\.(info|mod|zip)$/.exec(rest);
  const version = file ? unescapePath(file[1]!) : null;
  if (!file || !version || !pkg.versions.some((x) => x.version === version)) {
    return notFound(`${modulePath}@${rest}`);
  }
  if (file[2] === 'info') return json(info(version));
  if (file[2] === 'zip') return notFound('zip files are not served by the fake');
  const deprecation = pkg.deprecated ? `// Deprecated: ${pkg.deprecated}\n` : '';
  const retracted = pkg.versions.filter((x) => x.yanked);
  const retractions =
    retracted.length === 0
      ? ''
      : `\nretract (\n${retracted.map((x) => `\t${x.version} // ${x.yankedReason ?? 'retracted'}`).join('\n')}\n)\n`;
  return {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: `${deprecation}module ${modulePath}\n\ngo 1.21\n\nrequire example.org/dep v1.0.0\n${retractions}`,
  };
}

import { Type } from 'typebox';
import { usageOf } from '../../packages/store';
import { cite, uniqueCitations } from '../citations';
import { answer, defineIntent, Limit, type Row } from '../intent';
import { listed, plural } from '../resolve';
import { driftedPackages, driftedRepositories, lowHealthPackages } from '../store';
import { packageAt, withPackage } from './shared';

/** Questions about packages: where one is used, drift, low health. */

const Metric = Type.Union([Type.Literal('libyear'), Type.Literal('versions_behind')]);
const metricOf = (text: string): 'libyear' | 'versions_behind' =>
  /\b(?:versions? behind|major|releases behind|out of date by)\b/.test(text)
    ? 'versions_behind'
    : 'libyear';

export const packageUsage = defineIntent({
  name: 'packages.usage',
  summary: "A package's usage across your repositories: which use it, in which versions and files",
  parameters: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 300 }),
    ecosystem: Type.Union([Type.String(), Type.Null()]),
    version: Type.Union([Type.String(), Type.Null()]),
  }),
  examples: [
    'Which repositories use lodash?',
    'Where is @acme/ui used?',
    'Who depends on requests==2.31.0?',
  ],
  needs: 'package',
  refuses: 'vulnerabilityId',
  cues: [
    {
      pattern:
        /\b(?:use|uses|using|used|usage|usages|depend|depends|depending|import|imports|include|includes|pull in|pulls in|installed|ships?|contains?)\b/,
      weight: 4,
    },
    { pattern: /\b(?:which|where|who|what)\b/, weight: 1 },
    { pattern: /\b(?:repos?|repositories|projects?|services?)\b/, weight: 1 },
  ],
  extract: (q) => {
    const mention = q.packages[0];
    return {
      name: mention?.name ?? '',
      ecosystem: mention?.ecosystem ?? q.ecosystems[0] ?? null,
      version: mention?.version ?? null,
    };
  },
  run: (context, p) =>
    withPackage(
      context,
      p,
      (purl) => `Which repositories use ${purl}?`,
      async (pkg) => {
        if (!pkg) return answer('No package was named.', [], []);
        const usage = (await usageOf(context.db, pkg.packageId)).filter(
          (u) => !p.version || u.version === p.version,
        );
        const rows: Row[] = usage.map((u) => ({
          repositoryId: u.repository_id,
          repository: u.repository_name,
          version: u.version,
          scope: u.scope,
          direct: u.direct,
          file: u.file,
        }));
        const repositories = [...new Set(usage.map((u) => u.repository_name))];
        const versions = [...new Set(usage.map((u) => u.version ?? 'unpinned'))];
        const label = `${packageAt(pkg.name, p.version)} (${pkg.ecosystem})`;
        const text = repositories.length
          ? `${label} is used by ${plural(repositories.length, 'repository', 'repositories')}: ${listed(repositories)}; version${versions.length === 1 ? '' : 's'} ${listed(versions)}.`
          : `No repository uses ${label}.`;
        return answer(
          text,
          rows,
          uniqueCitations([
            cite.package(pkg.packageId),
            ...usage.map((u) => cite.repository(u.repository_id)),
          ]),
        );
      },
    ),
});

export const driftedPackagesIntent = defineIntent({
  name: 'drift.packages',
  summary:
    'The most drifted packages you use: libyear summed over repositories, or versions behind',
  parameters: Type.Object({
    metric: Metric,
    ecosystem: Type.Union([Type.String(), Type.Null()]),
    limit: Limit,
  }),
  examples: [
    'Which packages are the most outdated?',
    'Top 5 packages by libyear',
    'Which dependencies are the most versions behind?',
  ],
  cues: [
    {
      pattern:
        /\b(?:outdated|drift(?:ed)?|libyears?|stale|behind|out of date|old(?:est)?|lagging)\b/,
      weight: 4,
    },
    { pattern: /\b(?:packages?|dependenc(?:y|ies)|libraries|libs|deps)\b/, weight: 2 },
    { pattern: /\b(?:most|top|worst|biggest|furthest)\b/, weight: 1 },
  ],
  extract: (q) => ({
    metric: metricOf(q.normalised),
    ecosystem: q.ecosystems[0] ?? null,
    limit: q.limit ?? 10,
  }),
  run: async ({ db }, p) => {
    const found = await driftedPackages(db, p.metric, p.ecosystem, p.limit);
    const rows: Row[] = found.map((r) => ({
      packageId: r.id,
      ecosystem: r.ecosystem,
      name: r.name,
      libyear: Number(r.libyear),
      majorBehind: Number(r.major_behind),
      minorBehind: Number(r.minor_behind),
      latestStable: r.latest_stable,
      versions: r.versions,
      repositoryIds: r.repository_ids,
    }));
    const measure = (r: Row) =>
      p.metric === 'libyear' ? `${r.libyear} libyears` : `${r.majorBehind} major versions behind`;
    const text = rows.length
      ? `The most drifted packages by ${p.metric === 'libyear' ? 'libyear' : 'versions behind'}: ${listed(
          rows.map((r) => `${r.name} (${measure(r)})`),
          5,
        )}.`
      : 'No measured package is behind its latest release.';
    return answer(
      text,
      rows,
      uniqueCitations([
        ...found.map((r) => cite.package(r.id)),
        ...found.flatMap((r) => r.repository_ids.map((id) => cite.repository(id))),
      ]),
    );
  },
});

export const driftedRepositoriesIntent = defineIntent({
  name: 'drift.repositories',
  summary: 'The most drifted repositories: total libyear of their dependencies, or versions behind',
  parameters: Type.Object({ metric: Metric, limit: Limit }),
  examples: [
    'Which repositories are the most outdated?',
    'Rank repositories by libyear',
    'Which projects have drifted the most?',
  ],
  cues: [
    {
      pattern: /\b(?:outdated|drift(?:ed)?|libyears?|stale|behind|out of date|oldest|lagging)\b/,
      weight: 4,
    },
    { pattern: /\b(?:repos?|repositories|projects?|services?|codebases?)\b/, weight: 3 },
    { pattern: /\b(?:most|top|worst|rank|biggest)\b/, weight: 1 },
  ],
  refuses: 'package',
  extract: (q) => ({ metric: metricOf(q.normalised), limit: q.limit ?? 10 }),
  run: async ({ db }, p) => {
    const found = await driftedRepositories(db, p.metric, p.limit);
    const rows: Row[] = found.map((r) => ({
      repositoryId: r.id,
      repository: r.full_name,
      libyear: Number(r.libyear_total),
      outdated: r.outdated_count,
      measured: r.measured_count,
      majorBehind: r.major_behind,
      minorBehind: r.minor_behind,
    }));
    const text = rows.length
      ? `The most drifted repositories: ${listed(
          rows.map(
            (r) =>
              `${r.repository} (${p.metric === 'libyear' ? `${r.libyear} libyears` : `${r.majorBehind} major versions behind`})`,
          ),
          5,
        )}.`
      : 'No repository has a drift snapshot yet.';
    return answer(
      text,
      rows,
      found.map((r) => cite.repository(r.id)),
    );
  },
});

export const lowHealth = defineIntent({
  name: 'packages.low_health',
  summary:
    'Packages with a low health score used at runtime (production), optionally only in critical repositories',
  parameters: Type.Object({
    below: Type.Integer({ minimum: 1, maximum: 100 }),
    criticalities: Type.Array(
      Type.Union([
        Type.Literal('critical'),
        Type.Literal('high'),
        Type.Literal('medium'),
        Type.Literal('low'),
      ]),
    ),
    limit: Limit,
  }),
  examples: [
    'Which unhealthy packages do critical repositories use in production?',
    'Packages with a health score below 40',
  ],
  cues: [
    {
      pattern:
        /\b(?:health|healthy|unhealthy|poorly maintained|unmaintained|abandoned|low[- ]quality|risky)\b/,
      weight: 5,
    },
    { pattern: /\b(?:packages?|dependenc(?:y|ies)|libraries)\b/, weight: 1 },
    { pattern: /\b(?:production|prod|critical|runtime)\b/, weight: 1 },
  ],
  extract: (q) => {
    const threshold = /\b(?:below|under|less than|lower than|<)\s*(\d{1,3})\b/.exec(
      q.normalised,
    )?.[1];
    const criticalities: Array<'critical' | 'high'> = /\bcritical\b/.test(q.normalised)
      ? ['critical']
      : /\b(?:important|high)\b/.test(q.normalised)
        ? ['critical', 'high']
        : [];
    return {
      below: Math.min(100, Math.max(1, Number(threshold ?? 50))),
      criticalities,
      limit: q.limit ?? 20,
    };
  },
  run: async ({ db }, p) => {
    const found = await lowHealthPackages(db, p.below, p.criticalities, p.limit);
    const rows: Row[] = found.map((r) => ({
      packageId: r.id,
      ecosystem: r.ecosystem,
      name: r.name,
      healthScore: r.default_score,
      repositories: r.repositories,
      repositoryIds: r.repository_ids,
    }));
    const where = p.criticalities.length ? ` in ${p.criticalities.join(' or ')} repositories` : '';
    const text = rows.length
      ? `${plural(rows.length, 'package')} with a health score below ${p.below} ${rows.length === 1 ? 'is' : 'are'} used in production${where}: ${listed(rows.map((r) => `${r.name} (${r.healthScore})`))}.`
      : `No package with a health score below ${p.below} is used in production${where}.`;
    return answer(
      text,
      rows,
      uniqueCitations([
        ...found.map((r) => cite.package(r.id)),
        ...found.flatMap((r) => r.repository_ids.map((id) => cite.repository(id))),
      ]),
    );
  },
});

import { sql } from 'kysely';
import { Type } from 'typebox';
import { usageOf } from '../../packages/store';
import { advisoriesOf, affectedOf, findVulnerability } from '../../vulnerabilities/store';
import { cite, uniqueCitations } from '../citations';
import { answer, defineIntent, type Row } from '../intent';
import { listed, plural } from '../resolve';
import { withPackage } from './shared';

/**
 * Catalogue questions: a vulnerability's fixed versions, the versions of a package in use, the
 * watched packages, the policies. Reads go through the owners' stores where they have one
 * (vulnerabilities/store, packages/store); the rest are the tenant's own rows.
 */

const SHOWN = 50;

export const fixedVersions = defineIntent({
  name: 'vulnerability.fixed_versions',
  summary: 'The versions that fix a vulnerability, per affected package',
  parameters: Type.Object({ vulnerabilityId: Type.String({ minLength: 1, maxLength: 100 }) }),
  examples: [
    'Which version fixes CVE-2021-23337?',
    'What should I upgrade to for GHSA-35jh-r3h4-6jhm?',
  ],
  needs: 'vulnerabilityId',
  cues: [
    {
      pattern:
        /\b(?:fix(?:es|ed)? (?:version|release)s?|fixed in|fix(?:es)? it|patched (?:version|release)s?|which versions? (?:fix|patch)|versions? (?:fix(?:es)?|patch(?:es)?)|versions? (?:that|which) (?:fix|patch)|upgrade to|update to|safe versions?|remediation)\b/,
      weight: 6,
    },
  ],
  extract: (q) => ({ vulnerabilityId: q.vulnerabilityIds[0] ?? '' }),
  run: async ({ db }, p) => {
    const v = await findVulnerability(db, p.vulnerabilityId);
    if (!v) return answer(`Driftwatch knows no advisory ${p.vulnerabilityId}.`, [], []);
    const advisories = await advisoriesOf(db, v.id);
    const affected = (
      await affectedOf(
        db,
        advisories.map((a) => a.id),
      )
    ).filter((a) => !a.withdrawn);
    const byPackage = new Map<string, Row>();
    for (const a of affected) {
      const key = `${a.ecosystem}/${a.name}`;
      const known = byPackage.get(key);
      const fixed = [
        ...new Set([...((known?.fixedVersions as string[]) ?? []), ...a.fixed_versions]),
      ];
      byPackage.set(key, {
        ecosystem: a.ecosystem,
        name: a.name,
        packageId: a.package_id,
        fixedVersions: fixed,
      });
    }
    const rows = [...byPackage.values()];
    const parts = rows.map((r) =>
      (r.fixedVersions as string[]).length
        ? `${r.name} (${r.ecosystem}) ${(r.fixedVersions as string[]).join(', ')}`
        : `${r.name} (${r.ecosystem}) no fixed version yet`,
    );
    const text = rows.length
      ? `${v.canonical_id} is fixed in: ${listed(parts)}.`
      : `${v.canonical_id} names no affected package.`;
    return answer(text, rows, [cite.vulnerability(v.id)]);
  },
});

export const versionsInUse = defineIntent({
  name: 'packages.versions',
  summary: 'Which versions of a package your repositories use, and how many repositories each',
  parameters: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 300 }),
    ecosystem: Type.Union([Type.String(), Type.Null()]),
  }),
  examples: ['Which versions of lodash do we use?', 'What versions of express are in use?'],
  needs: 'package',
  refuses: 'vulnerabilityId',
  cues: [{ pattern: /\b(?:which|what|how many|all) versions?\b|\bversions? of\b/, weight: 6 }],
  extract: (q) => ({
    name: q.packages[0]?.name ?? '',
    ecosystem: q.packages[0]?.ecosystem ?? q.ecosystems[0] ?? null,
  }),
  run: (context, p) =>
    withPackage(
      context,
      p,
      (purl) => `Which versions of ${purl} do we use?`,
      async (pkg) => {
        if (!pkg) return answer('No package was named.', [], []);
        const usage = await usageOf(context.db, pkg.packageId);
        const byVersion = new Map<string, Set<string>>();
        for (const u of usage) {
          const version = u.version ?? 'unresolved';
          byVersion.set(version, (byVersion.get(version) ?? new Set()).add(u.repository_name));
        }
        const rows: Row[] = [...byVersion].map(([version, repositories]) => ({
          packageId: pkg.packageId,
          version,
          repositories: [...repositories].sort(),
          repositoryCount: repositories.size,
        }));
        const text = rows.length
          ? `${pkg.name} (${pkg.ecosystem}) is used in ${plural(rows.length, 'version')}: ${listed(rows.map((r) => `${r.version} (${r.repositoryCount})`))}.`
          : `None of your repositories uses ${pkg.name} (${pkg.ecosystem}).`;
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

export const watchedPackages = defineIntent({
  name: 'packages.watched',
  summary: 'The packages you watch',
  parameters: Type.Object({}),
  examples: ['Which packages do we watch?', 'Show our watchlist'],
  cues: [
    { pattern: /\bwatch(?:ed|es|ing)?\b|\bwatch ?list\b/, weight: 4 },
    { pattern: /\b(?:packages?|librar(?:y|ies)|dependenc(?:y|ies))\b|\bwatch ?list\b/, weight: 2 },
  ],
  refuses: 'package',
  extract: () => ({}),
  run: async ({ db }) => {
    const found = await db
      .selectFrom('package_watches as w')
      .innerJoin('packages as p', 'p.id', 'w.package_id')
      .select(['w.package_id', 'p.name', 'p.ecosystem', 'w.note', 'w.created_at'])
      .orderBy('p.name')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((w) => ({
      packageId: w.package_id,
      name: w.name,
      ecosystem: w.ecosystem,
      note: w.note,
      watchedSinceUtc: w.created_at.toISOString(),
    }));
    const text = `You watch ${plural(rows.length, 'package')}${rows.length ? `: ${listed(rows.map((r) => `${r.name} (${r.ecosystem})`))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((w) => cite.package(w.package_id)),
    );
  },
});

export const policiesList = defineIntent({
  name: 'policies.list',
  feature: 'policies',
  summary: 'The policies you have, enabled or not, with their action and severity',
  parameters: Type.Object({ enabledOnly: Type.Boolean() }),
  examples: ['Which policies do we have?', 'List the enabled policies'],
  cues: [
    { pattern: /\bpolic(?:y|ies)\b/, weight: 3 },
    { pattern: /\b(?:which|what|list|show|have|configured|defined|enabled|active)\b/, weight: 1 },
    {
      pattern:
        /\b(?:do we have|are (?:configured|defined|enabled|active)|list (?:the |our |all )?(?:enabled |active )?policies)\b/,
      weight: 2,
    },
  ],
  extract: (q) => ({ enabledOnly: /\b(?:enabled|active)\b/.test(q.normalised) }),
  run: async ({ db }, p) => {
    const found = await db
      .selectFrom('policies')
      .select(['id', 'name', 'action', 'severity', 'enabled'])
      .$if(p.enabledOnly, (q) => q.where('enabled', '=', true))
      .orderBy('name')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((r) => ({
      policyId: r.id,
      name: r.name,
      action: r.action,
      severity: r.severity,
      enabled: r.enabled,
    }));
    const text = `You have ${plural(rows.length, `${p.enabledOnly ? 'enabled ' : ''}policy`, `${p.enabledOnly ? 'enabled ' : ''}policies`)}${rows.length ? `: ${listed(rows.map((r) => String(r.name)))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((r) => cite.policy(r.id)),
    );
  },
});

/** The same text in select and group by (a bound 'unknown' would be two parameters to PostgreSQL). */
const LICENCE = sql<string>`coalesce(v.licence, 'unknown')`;

export const licenceInventory = defineIntent({
  name: 'counts.licences',
  summary: 'The licences of the versions your repositories use, counted (unknown: not read yet)',
  parameters: Type.Object({}),
  examples: ['Which licences do we use?', 'Give me a licence breakdown'],
  cues: [
    { pattern: /\b(?:licen[cs]es?|licen[cs]ing)\b/, weight: 5 },
    {
      pattern:
        /\b(?:do we use|in use|we use|inventory|breakdown|break down|summary|overview|how many|count|distribution|per licen[cs]e)\b/,
      weight: 3,
    },
  ],
  refuses: 'package',
  extract: () => ({}),
  run: async ({ db }) => {
    // The catalogue's versions are read only through the tenant's own dependencies.
    const found = await db
      .selectFrom('repository_dependencies as d')
      .innerJoin('repositories as r', (join) =>
        join.onRef('r.id', '=', 'd.repository_id').onRef('r.dependency_scan_id', '=', 'd.scan_id'),
      )
      .leftJoin('package_versions as v', (join) =>
        join.onRef('v.package_id', '=', 'd.package_id').onRef('v.version', '=', 'd.version'),
      )
      .select((eb) => [
        LICENCE.as('licence'),
        eb.fn.countAll<string>().as('dependencies'),
        eb.fn.count<string>('d.package_id').distinct().as('packages'),
      ])
      .groupBy(LICENCE)
      .orderBy('dependencies', 'desc')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((l) => ({
      licence: l.licence,
      dependencies: Number(l.dependencies),
      packages: Number(l.packages),
    }));
    const text = rows.length
      ? `Licences in use: ${listed(
          rows.map((r) => `${r.licence} ${r.dependencies}`),
          10,
        )}.`
      : 'Your repositories have no dependencies yet.';
    return answer(text, rows, []);
  },
});

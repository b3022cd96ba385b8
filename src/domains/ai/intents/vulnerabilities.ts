import { Type } from 'typebox';
import { listExposures } from '../../exposures/store';
import { exposureCounts, findVulnerability } from '../../vulnerabilities/store';
import { cite, uniqueCitations } from '../citations';
import { answer, defineIntent, type Row } from '../intent';
import { listed, plural } from '../resolve';
import { isUnresolved, packageAt, repositoryNames } from './shared';

/** Questions about one vulnerability, named by any of its ids or aliases. */

const VulnerabilityId = Type.String({ minLength: 3, maxLength: 100 });
const MAX_EXPOSURES = 2000;

export const affectedRepositories = defineIntent({
  name: 'vulnerability.affected_repositories',
  summary:
    'Repositories affected by a vulnerability (any id or alias: CVE, GHSA, PYSEC, RUSTSEC, GO, MAL, OSV...), with the package versions and exposures',
  parameters: Type.Object({ vulnerabilityId: VulnerabilityId, includeResolved: Type.Boolean() }),
  examples: [
    'Which repositories are affected by CVE-2024-35195?',
    'Are we exposed to GHSA-9wx4-h78v-vm56?',
    'Where do we have PYSEC-2023-74?',
  ],
  needs: 'vulnerabilityId',
  cues: [
    {
      pattern:
        /\b(?:affect|affects|affected|affecting|impact|impacts|impacted|exposed|exposure|vulnerable|hit|have|has)\b/,
      weight: 3,
    },
    {
      pattern:
        /\b(?:repos?|repositories|projects?|services?|where|which|who|anything|any of|we|us|our)\b/,
      weight: 2,
    },
    { pattern: /\b(?:fixed|resolved|ever|including)\b/, weight: 1 },
  ],
  extract: (q) => ({
    vulnerabilityId: q.vulnerabilityIds[0] ?? '',
    includeResolved: /\b(?:ever|including fixed|even fixed|also fixed|history)\b/.test(
      q.normalised,
    ),
  }),
  run: async ({ db }, { vulnerabilityId, includeResolved }) => {
    const vulnerability = await findVulnerability(db, vulnerabilityId);
    if (!vulnerability) {
      return answer(`Driftwatch knows no advisory ${vulnerabilityId}.`, [], []);
    }
    const page = await listExposures(
      db,
      { vulnerabilityId: vulnerability.id },
      { take: MAX_EXPOSURES, skip: 0 },
    );
    const exposures = page.rows.filter((e) => includeResolved || isUnresolved(e.status));
    const names = await repositoryNames(
      db,
      exposures.map((e) => e.repository_id),
    );
    const byRepository = new Map<string, typeof exposures>();
    for (const e of exposures)
      byRepository.set(e.repository_id, [...(byRepository.get(e.repository_id) ?? []), e]);
    const rows: Row[] = [...byRepository].map(([repositoryId, list]) => ({
      repositoryId,
      repository: names.get(repositoryId) ?? repositoryId,
      packages: [...new Set(list.map((e) => packageAt(e.package_name, e.version)))],
      statuses: [...new Set(list.map((e) => e.status))],
      exposureIds: list.map((e) => e.id),
    }));
    rows.sort((a, b) => String(a.repository).localeCompare(String(b.repository)));
    const label =
      vulnerability.canonical_id === vulnerabilityId
        ? vulnerabilityId
        : `${vulnerabilityId} (${vulnerability.canonical_id})`;
    const text =
      rows.length === 0
        ? `No repository is ${includeResolved ? 'or was ' : ''}affected by ${label}.`
        : `${plural(rows.length, 'repository', 'repositories')} ${rows.length === 1 ? 'is' : 'are'} affected by ${label}: ${listed(rows.map((r) => String(r.repository)))}.`;
    return answer(
      text,
      rows,
      uniqueCitations([
        cite.vulnerability(vulnerability.id),
        ...rows.map((r) => cite.repository(String(r.repositoryId))),
        ...exposures.map((e) => cite.exposure(e.id)),
      ]),
    );
  },
});

export const vulnerabilityDetails = defineIntent({
  name: 'vulnerability.details',
  summary:
    'What a vulnerability is: its summary, severity, aliases and how many of your exposures it has',
  parameters: Type.Object({ vulnerabilityId: VulnerabilityId }),
  examples: [
    'What is CVE-2024-35195?',
    'How severe is GHSA-9wx4-h78v-vm56?',
    'Tell me about RUSTSEC-2024-0001',
  ],
  needs: 'vulnerabilityId',
  cues: [
    {
      pattern:
        /\b(?:what is|what's|whats|tell me about|describe|explain|details?|summary|summarise|summarize|info|information)\b/,
      weight: 4,
    },
    {
      pattern: /\b(?:how (?:severe|bad|serious|critical|dangerous)|severity|cvss|score)\b/,
      weight: 4,
    },
    // The id alone ("CVE-2024-29041?"): what it is.
    { pattern: /^[\s?.!]*$/, weight: 4 },
  ],
  extract: (q) => ({ vulnerabilityId: q.vulnerabilityIds[0] ?? '' }),
  run: async ({ db }, { vulnerabilityId }) => {
    const v = await findVulnerability(db, vulnerabilityId);
    if (!v) return answer(`Driftwatch knows no advisory ${vulnerabilityId}.`, [], []);
    const counts = await exposureCounts(db, v.id);
    const severity = v.severity_rating
      ? `${v.severity_rating} severity${v.severity_score ? ` (${Number(v.severity_score)})` : ''}`
      : 'no severity rating';
    const text = `${v.canonical_id}${v.summary ? `: ${v.summary}` : ''}. It has ${severity}; you have ${plural(counts.total, 'exposure')} to it, ${counts.unresolved} unresolved.`;
    return answer(
      text,
      [
        {
          vulnerabilityId: v.id,
          canonicalId: v.canonical_id,
          aliases: v.aliases,
          kind: v.kind,
          summary: v.summary,
          severity: v.severity_rating,
          severityScore: v.severity_score === null ? null : Number(v.severity_score),
          publishedUtc: v.published_at ? v.published_at.toISOString() : null,
          exposures: counts.total,
          unresolvedExposures: counts.unresolved,
        },
      ],
      [cite.vulnerability(v.id)],
    );
  },
});

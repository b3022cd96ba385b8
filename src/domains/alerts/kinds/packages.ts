import { Type } from 'typebox';
import { type AlertCandidate, defineKind, type RuleView } from './types';
import { isWatched, repositoriesUsing } from './usage';

/**
 * Kinds raised from the shared package catalogue. Its events fan out to the tenants that use
 * (or watch) the package; here each tenant finds which of its repositories are concerned.
 */
const PackageFields = {
  packageId: Type.String({ format: 'uuid' }),
  ecosystem: Type.String(),
  name: Type.String(),
  repositoryIds: Type.Array(Type.String({ format: 'uuid' })),
};
const NoSettings = Type.Object({}, { additionalProperties: false });

interface Described {
  packageId: string;
  ecosystem: string;
  name: string;
}

function candidate(
  data: Described,
  repositoryIds: string[],
  fields: Pick<AlertCandidate, 'subject' | 'severity' | 'title'> & {
    payload: Record<string, unknown>;
  },
): AlertCandidate {
  return {
    ...fields,
    repositoryIds,
    packageId: data.packageId,
    ecosystem: data.ecosystem,
    payload: {
      packageId: data.packageId,
      ecosystem: data.ecosystem,
      name: data.name,
      repositoryIds,
      ...fields.payload,
    },
  };
}

export const packageDeprecated = defineKind({
  kind: 'package_deprecated',
  description: 'A package used by the tenant was marked deprecated by its registry',
  event: 'package.deprecated',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    ...PackageFields,
    message: Type.String(),
    successor: Type.Union([Type.String(), Type.Null()]),
  }),
  candidates: async (db, data) => {
    const repositories = await repositoriesUsing(db, data.packageId);
    if (repositories.length === 0 && !(await isWatched(db, data.packageId))) return [];
    return [
      candidate(data, repositories, {
        subject: data.packageId,
        severity: 'medium',
        title: `${data.name} (${data.ecosystem}) is deprecated`,
        payload: { message: data.message, successor: data.successor },
      }),
    ];
  },
});

export const packageVersionsYanked = defineKind({
  kind: 'package_versions_yanked',
  description: 'Versions of a package that the tenant uses were yanked from the registry',
  event: 'package.versions_yanked',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({ ...PackageFields, versions: Type.Array(Type.String()) }),
  candidates: async (db, data) => {
    const repositories = await repositoriesUsing(db, data.packageId, data.versions);
    if (repositories.length === 0) return [];
    return [
      candidate(data, repositories, {
        subject: `${data.packageId}@${[...data.versions].sort().join(',')}`,
        severity: 'high',
        title: `${data.name} ${data.versions.join(', ')} yanked (${data.ecosystem})`,
        payload: { versions: data.versions },
      }),
    ];
  },
});

const HealthSettings = Type.Object(
  {
    below: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Alert when the score is below' }),
    ),
    droppedBy: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description: 'Alert when the score fell by at least this many points',
      }),
    ),
  },
  { additionalProperties: false },
);

function healthMatches(rule: RuleView, found: AlertCandidate): boolean {
  const score = Number(found.payload.score);
  const previous = found.payload.previousScore;
  const below = typeof rule.settings.below === 'number' ? rule.settings.below : null;
  const droppedBy = typeof rule.settings.droppedBy === 'number' ? rule.settings.droppedBy : null;
  const isBelow = below !== null && score < below;
  const dropped =
    droppedBy !== null && typeof previous === 'number' && previous - score >= droppedBy;
  return isBelow || dropped;
}

export const healthScore = defineKind({
  kind: 'health_score',
  description:
    'A used package’s health score (default weights) fell below a threshold or dropped by a delta',
  event: 'package.health_changed',
  settingsSchema: HealthSettings,
  payloadSchema: Type.Object({
    ...PackageFields,
    previousScore: Type.Union([Type.Integer(), Type.Null()]),
    score: Type.Integer(),
  }),
  checkSettings: (settings): Record<string, string[]> =>
    settings.below === undefined && settings.droppedBy === undefined
      ? { settings: ['needs below, droppedBy or both'] }
      : {},
  candidates: async (db, data) => {
    const repositories = await repositoriesUsing(db, data.packageId);
    if (repositories.length === 0) return [];
    return [
      candidate(data, repositories, {
        subject: data.packageId,
        severity: 'medium',
        title: `${data.name} (${data.ecosystem}) health score ${data.previousScore ?? '?'} → ${data.score}`,
        payload: { previousScore: data.previousScore, score: data.score },
      }),
    ];
  },
  matches: healthMatches,
});

export const maintainersChanged = defineKind({
  kind: 'maintainers_changed',
  description: 'The maintainers of a used or watched package changed',
  event: 'package.maintainers_changed',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    ...PackageFields,
    added: Type.Array(Type.String()),
    removed: Type.Array(Type.String()),
  }),
  candidates: async (db, data) => {
    const repositories = await repositoriesUsing(db, data.packageId);
    if (repositories.length === 0 && !(await isWatched(db, data.packageId))) return [];
    const changes = [...data.added.map((m) => `+${m}`), ...data.removed.map((m) => `-${m}`)].join(
      ' ',
    );
    return [
      candidate(data, repositories, {
        subject: `${data.packageId}:${changes}`,
        severity: 'medium',
        title: `${data.name} (${data.ecosystem}) maintainers changed: ${changes}`,
        payload: { added: data.added, removed: data.removed },
      }),
    ];
  },
});

export const packageReleased = defineKind({
  kind: 'package_released',
  description: 'A watched package has a new latest release',
  event: 'package.released',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    ...PackageFields,
    version: Type.String(),
    previousVersion: Type.Union([Type.String(), Type.Null()]),
  }),
  candidates: async (db, data) => {
    if (!(await isWatched(db, data.packageId))) return [];
    const repositories = await repositoriesUsing(db, data.packageId);
    return [
      candidate(data, repositories, {
        subject: `${data.packageId}@${data.version}`,
        severity: 'low',
        title: `${data.name} ${data.version} released (${data.ecosystem})`,
        payload: { version: data.version, previousVersion: data.previousVersion },
      }),
    ];
  },
});

import type { Kysely } from 'kysely';
import { iso } from '../../core/iso-time';
import { type Feature, type Plan, planHas } from '../../core/plans';
import { badRequest, FieldErrorCollector } from '../../core/problem';
import type { DB } from '../../db/schema';
import { checkWeights, type ScoringWeights } from '../../intel/health/weights';
import { benchmarkFigures, INDUSTRIES, SIZE_BANDS } from './benchmark';
import {
  type BenchmarkProfile,
  loadBenchmarkProfile,
  saveBenchmarkProfile,
  saveScoringWeights,
} from './store';

/**
 * Tenant settings of package intelligence: health scoring weights and the benchmark profile
 * (docs/package-intelligence.md). Peer figures are the `benchmarks` plan feature; the profile
 * itself is a setting every plan has (docs/decisions/0009-benchmark-profile-partial-feature.md).
 */
export const BENCHMARKS: Feature = 'benchmarks';

/** Validates and stores a complete weights object (400 naming the fields otherwise). */
export async function replaceScoringWeights(
  db: Kysely<DB>,
  body: unknown,
): Promise<ScoringWeights> {
  const check = checkWeights(body);
  if (!check.ok) throw badRequest('The scoring weights are invalid.', check.errors);
  await saveScoringWeights(db, check.weights);
  return check.weights;
}

export interface BenchmarkProfileChange {
  industry?: string | null;
  sizeBand?: string | null;
  optIn?: boolean;
}

type ProfileSettings = Pick<BenchmarkProfile, 'industry' | 'sizeBand' | 'optIn'>;

/** The profile after `change`: fields left out keep their value; 400 on unknown values. */
export function nextBenchmarkProfile(
  current: ProfileSettings,
  change: BenchmarkProfileChange,
): ProfileSettings {
  const errors = new FieldErrorCollector();
  if (
    typeof change.industry === 'string' &&
    !(INDUSTRIES as readonly string[]).includes(change.industry)
  ) {
    errors.add('industry', `must be one of ${INDUSTRIES.join(', ')}`);
  }
  if (
    typeof change.sizeBand === 'string' &&
    !(SIZE_BANDS as readonly string[]).includes(change.sizeBand)
  ) {
    errors.add('sizeBand', `must be one of ${SIZE_BANDS.join(', ')}`);
  }
  errors.throwIfAny(400, 'The benchmark profile is invalid.');
  const next = {
    industry: change.industry !== undefined ? change.industry : current.industry,
    sizeBand: change.sizeBand !== undefined ? change.sizeBand : current.sizeBand,
    optIn: change.optIn ?? current.optIn,
  };
  if (next.optIn && (!next.industry || !next.sizeBand)) {
    throw badRequest('Opting in needs an industry and a size band.', {
      optIn: ['needs industry and sizeBand to be set'],
    });
  }
  return next;
}

/** Applies `change` to the tenant's profile and returns what is stored now. */
export async function changeBenchmarkProfile(
  db: Kysely<DB>,
  change: BenchmarkProfileChange,
): Promise<ProfileSettings> {
  const current = await loadBenchmarkProfile(db);
  const next = nextBenchmarkProfile(current, change);
  // Nothing changed: the profile keeps its updatedAtUtc.
  const same =
    next.industry === current.industry &&
    next.sizeBand === current.sizeBand &&
    next.optIn === current.optIn;
  if (!same) await saveBenchmarkProfile(db, next);
  return next;
}

/**
 * The tenant's profile with its benchmark: peer figures only on a plan with benchmarks, once the
 * tenant opted in with a peer group of at least `minimum` other tenants.
 */
export async function benchmarkProfileView(db: Kysely<DB>, plan: Plan, minimum: number) {
  const profile = await loadBenchmarkProfile(db);
  const base = {
    industry: profile.industry,
    sizeBand: profile.sizeBand,
    optIn: profile.optIn,
    updatedAtUtc: iso(profile.updatedAt),
  };
  const unavailable = (reason: string, peerTenants: number | null = null) => ({
    ...base,
    benchmark: {
      available: false,
      reason,
      minimumPeerTenants: minimum,
      peerTenants,
      self: null,
      peers: null,
    },
  });
  if (!planHas(plan, BENCHMARKS)) {
    return unavailable(`the ${plan} plan does not include peer benchmarks`);
  }
  if (!profile.optIn || !profile.industry || !profile.sizeBand) {
    return unavailable('opt in with an industry and a size band to compare with peers');
  }
  const figures = await benchmarkFigures(db);
  if (figures.peerTenants < minimum) {
    return unavailable(
      `fewer than ${minimum} other tenants take part in this peer group`,
      figures.peerTenants,
    );
  }
  return {
    ...base,
    benchmark: {
      available: true,
      reason: null,
      minimumPeerTenants: minimum,
      peerTenants: figures.peerTenants,
      self: figures.self,
      peers: figures.peers,
    },
  };
}

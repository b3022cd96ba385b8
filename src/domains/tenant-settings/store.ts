import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import {
  DEFAULT_WEIGHTS,
  type ScoringWeights,
  weightsFromStored,
} from '../../intel/health/weights';

/** The tenant's scoring weights and benchmark profile (tenant rows, row-level secured). */

type Db = Kysely<DB>;

export async function loadScoringWeights(db: Db): Promise<ScoringWeights> {
  const row = await db.selectFrom('tenant_scoring_weights').select('weights').executeTakeFirst();
  return row ? weightsFromStored(row.weights) : { ...DEFAULT_WEIGHTS };
}

/** Saves the scope's tenant's weights (the database fills tenant_id from the scope). */
export async function saveScoringWeights(db: Db, weights: ScoringWeights): Promise<void> {
  const now = new Date();
  await db
    .insertInto('tenant_scoring_weights')
    .values({ weights: JSON.stringify(weights), updated_at: now })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ weights: JSON.stringify(weights), updated_at: now }),
    )
    .execute();
}

export interface BenchmarkProfile {
  industry: string | null;
  sizeBand: string | null;
  optIn: boolean;
  updatedAt: Date | null;
}

export async function loadBenchmarkProfile(db: Db): Promise<BenchmarkProfile> {
  const row = await db.selectFrom('tenant_benchmark_profiles').selectAll().executeTakeFirst();
  if (!row) return { industry: null, sizeBand: null, optIn: false, updatedAt: null };
  return {
    industry: row.industry,
    sizeBand: row.size_band,
    optIn: row.opt_in,
    updatedAt: row.updated_at,
  };
}

/** Saves the scope's tenant's profile (the database fills tenant_id from the scope). */
export async function saveBenchmarkProfile(
  db: Db,
  profile: Omit<BenchmarkProfile, 'updatedAt'>,
): Promise<void> {
  const now = new Date();
  const values = {
    industry: profile.industry,
    size_band: profile.sizeBand,
    opt_in: profile.optIn,
    updated_at: now,
  };
  await db
    .insertInto('tenant_benchmark_profiles')
    .values(values)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
    .execute();
}

export interface QuestionSettings {
  recordQuestionText: boolean;
}

/** Defaults until changed: the question's text is kept in its audit entry. */
export async function loadQuestionSettings(db: Db): Promise<QuestionSettings> {
  const row = await db
    .selectFrom('tenant_question_settings')
    .select('record_question_text')
    .executeTakeFirst();
  return { recordQuestionText: row?.record_question_text ?? true };
}

export async function saveQuestionSettings(db: Db, settings: QuestionSettings): Promise<void> {
  const values = { record_question_text: settings.recordQuestionText, updated_at: new Date() };
  await db
    .insertInto('tenant_question_settings')
    .values(values)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
    .execute();
}

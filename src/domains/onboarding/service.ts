import type { Kysely } from 'kysely';
import { unprocessable } from '../../core/problem';
import type { DB } from '../../db/schema';
import {
  advanceOnboarding,
  type OnboardingState,
  type OnboardingStep,
  onboardingState,
} from './state-machine';
import { doneSteps, readProgress, saveSkipped } from './store';

export interface OnboardingProgress extends OnboardingState {
  updatedAt: Date | null;
}

export async function getOnboarding(db: Kysely<DB>): Promise<OnboardingProgress> {
  const stored = await readProgress(db, false);
  const done = await doneSteps(db);
  return { ...onboardingState({ done, skipped: stored.skipped }), updatedAt: stored.updatedAt };
}

/** POST /api/v1/onboarding/advance: skips the current step; any other step is a 422. */
export async function advance(db: Kysely<DB>, step: OnboardingStep): Promise<OnboardingProgress> {
  const stored = await readProgress(db, true);
  const facts = { done: await doneSteps(db), skipped: stored.skipped };
  const result = advanceOnboarding(facts, step);
  if (!result.ok) {
    throw unprocessable(
      result.currentStep === 'completed'
        ? 'Onboarding is already completed.'
        : `Only the current step (${result.currentStep}) can be advanced.`,
      { step: [`the current step is ${result.currentStep}`] },
    );
  }
  const updatedAt = await saveSkipped(db, result.skipped);
  return {
    ...onboardingState({ done: facts.done, skipped: new Set(result.skipped) }),
    updatedAt,
  };
}

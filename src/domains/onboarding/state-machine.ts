/**
 * Onboarding (docs/design.md#states): connect_source_control → import_repositories → first_scan →
 * review_findings → configure_policies → configure_alerts → completed. Pure, and the only place
 * that says which step is current and what advancing does: a step is passed when the tenant did
 * the thing (computed from stored state by the service) or chose to skip it; the current step is
 * the first one not passed; advancing skips the current step and nothing else.
 */
export const ONBOARDING_STEPS = [
  'connect_source_control',
  'import_repositories',
  'first_scan',
  'review_findings',
  'configure_policies',
  'configure_alerts',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
export type OnboardingPosition = OnboardingStep | 'completed';
export type StepStatus = 'done' | 'skipped' | 'current' | 'pending';

export function isOnboardingStep(value: string): value is OnboardingStep {
  return (ONBOARDING_STEPS as readonly string[]).includes(value);
}

export interface OnboardingFacts {
  /** Steps whose thing the tenant has done (from stored state). */
  done: ReadonlySet<OnboardingStep>;
  /** Steps the tenant chose to skip (stored). */
  skipped: ReadonlySet<OnboardingStep>;
}

export interface OnboardingState {
  currentStep: OnboardingPosition;
  steps: { step: OnboardingStep; status: StepStatus }[];
}

export function onboardingState(facts: OnboardingFacts): OnboardingState {
  const passed = (step: OnboardingStep) => facts.done.has(step) || facts.skipped.has(step);
  const current = ONBOARDING_STEPS.find((step) => !passed(step)) ?? 'completed';
  return {
    currentStep: current,
    steps: ONBOARDING_STEPS.map((step) => ({
      step,
      status: facts.done.has(step)
        ? 'done'
        : facts.skipped.has(step)
          ? 'skipped'
          : step === current
            ? 'current'
            : 'pending',
    })),
  };
}

export type AdvanceResult =
  | { ok: true; skipped: OnboardingStep[] }
  | { ok: false; currentStep: OnboardingPosition };

/** Advancing from `step`: allowed only from the current step, which becomes skipped. */
export function advanceOnboarding(facts: OnboardingFacts, step: OnboardingStep): AdvanceResult {
  const { currentStep } = onboardingState(facts);
  if (currentStep !== step) return { ok: false, currentStep };
  return { ok: true, skipped: ONBOARDING_STEPS.filter((s) => facts.skipped.has(s) || s === step) };
}

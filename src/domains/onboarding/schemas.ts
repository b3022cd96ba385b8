import { Type } from 'typebox';
import { NullableDateTime } from '../../http/schemas';
import { ONBOARDING_STEPS } from './state-machine';

const stepList = ONBOARDING_STEPS.join(', ');

export const OnboardingProgressSchema = Type.Object({
  currentStep: Type.String({ description: `One of ${stepList}, or completed` }),
  completed: Type.Boolean(),
  steps: Type.Array(
    Type.Object({
      step: Type.String(),
      status: Type.Union([
        Type.Literal('done'),
        Type.Literal('skipped'),
        Type.Literal('current'),
        Type.Literal('pending'),
      ]),
    }),
  ),
  updatedAtUtc: NullableDateTime,
});

export const AdvanceOnboardingStepRequest = Type.Object(
  {
    step: Type.String({
      minLength: 1,
      maxLength: 100,
      description: `The current step, to move past it (skip it): ${stepList}`,
    }),
  },
  { additionalProperties: false },
);

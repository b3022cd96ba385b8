import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { iso } from '../../core/iso-time';
import { badRequest } from '../../core/problem';
import { withErrors } from '../../http/schemas';
import { tenantDb } from '../../http/scope';
import { AdvanceOnboardingStepRequest, OnboardingProgressSchema } from './schemas';
import { advance, getOnboarding, type OnboardingProgress } from './service';
import { isOnboardingStep, ONBOARDING_STEPS } from './state-machine';

function present(progress: OnboardingProgress) {
  return {
    currentStep: progress.currentStep,
    completed: progress.currentStep === 'completed',
    steps: progress.steps,
    updatedAtUtc: iso(progress.updatedAt),
  };
}

/** Onboarding progress (docs/workspace.md#onboarding). */
export function onboardingRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/v1/onboarding',
      {
        schema: {
          tags: ['Onboarding'],
          summary: 'Onboarding progress: each step done (computed), skipped, current or pending',
          response: withErrors({ 200: OnboardingProgressSchema }),
        },
        config: { role: 'viewer' },
      },
      async (request) => present(await getOnboarding(tenantDb(request))),
    );

    app.post(
      '/api/v1/onboarding/advance',
      {
        schema: {
          tags: ['Onboarding'],
          operationId: 'advanceOnboardingStep',
          summary: 'Move past (skip) the current onboarding step; any other step is a 422',
          body: AdvanceOnboardingStepRequest,
          response: withErrors({ 200: OnboardingProgressSchema }, [413, 415, 422]),
        },
        config: {
          role: 'admin',
          audit: { action: 'onboarding.advance', resourceType: 'onboarding' },
        },
      },
      async (request) => {
        const step = request.body.step.trim();
        if (!isOnboardingStep(step)) {
          throw badRequest('Unknown onboarding step.', {
            step: [`must be one of ${ONBOARDING_STEPS.join(', ')}`],
          });
        }
        request.auditDetails = { step };
        return present(await advance(tenantDb(request), step));
      },
    );
  };
}

import { withErrors } from '../../http/schemas';
import { principalOf, tenantWork } from '../../http/scope';
import type { DomainRoutes } from '../route-deps';
import { loadQuestionSettings } from '../tenant-settings/store';
import { createModelClient } from './model/client';
import { QuestionAnswer, QuestionRequest } from './schemas';
import { askQuestion, presentAnswer } from './service';

export const AI_TAG = 'Questions';

/**
 * POST /api/v1/ai/query: a question in plain language over the tenant's data, answered by the
 * intents' tenant-scoped reads (docs/questions.md). A read: viewers may ask, the read rate
 * limits apply; the audit entry names the intent (and the question, unless the tenant turned
 * that off).
 */
export const aiRoutes: DomainRoutes = (deps) => async (app) => {
  const settings = deps.config.aiModel;
  const model = settings
    ? createModelClient(settings, deps.secretBox, {
        onFailure: (reason) => app.log.warn({ reason }, 'question model call failed'),
      })
    : null;
  app.post(
    '/api/v1/ai/query',
    {
      schema: {
        tags: [AI_TAG],
        operationId: 'askQuestion',
        summary: "Answer a question in plain language over the tenant's data, with citations",
        body: QuestionRequest,
        response: withErrors({ 200: QuestionAnswer }, [413, 415, 422]),
      },
      config: {
        role: 'viewer',
        audit: { action: 'ai.query', resourceType: 'ai_query' },
        // A model may take seconds: each database step takes a connection only while it reads.
        scope: 'released',
      },
    },
    async (request) => {
      const inTenant = tenantWork(request, deps.database);
      const { recordQuestionText } = await inTenant(loadQuestionSettings);
      const note = (intent: string | null) => {
        request.auditDetails = recordQuestionText
          ? { intent, question: request.body.question }
          : { intent };
      };
      const asker = { inTenant, plan: principalOf(request).plan };
      const outcome = await askQuestion(asker, request.body, note, new Date(), model);
      return presentAnswer(outcome);
    },
  );
};

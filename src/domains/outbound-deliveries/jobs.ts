import { Type } from 'typebox';
import { defineJob, jobDefinition } from '../../jobs/contract';
import { type Poller, startPoller } from '../../jobs/poller';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { attemptDelivery, type DeliveryContext, dispatchDueDeliveries } from './attempt';
import { ATTEMPT_DELIVERIES } from './store';

export const DISPATCH_DUE_DELIVERIES = defineJob({
  name: 'outbound-deliveries.dispatch-due',
  payload: Type.Object({}),
  expireInSeconds: 600,
  retryLimit: 0,
  schedule: '* * * * *',
});

/**
 * The delivery jobs (docs/integrations.md#delivery): the first attempt of new deliveries, queued
 * through the outbox with the change; retries come from the deliveries' own `next_attempt_at`,
 * picked up by every worker's dispatcher (startDeliveryDispatcher) and, as a backstop, by a
 * minute job. All state is in the database: a worker killed mid-attempt leaves a lease that
 * runs out, then the delivery is attempted again.
 */
export function outboundDeliveryJobs(deps: JobDeps, context: DeliveryContext): JobDefinition[] {
  return [
    jobDefinition(
      ATTEMPT_DELIVERIES,
      async ({ tenantId, data }) => {
        if (!tenantId) return;
        for (const deliveryId of data.deliveryIds) {
          await attemptDelivery(context, tenantId, deliveryId);
        }
      },
      { expireInSeconds: Math.ceil(deps.config.webhooks.timeoutMs / 1000) * 4 + 60 },
    ),
    jobDefinition(DISPATCH_DUE_DELIVERIES, async () => {
      await dispatchDueDeliveries(context);
    }),
  ];
}

export type DeliveryDispatcher = Poller;

/**
 * Attempts due deliveries every `webhooks.pollMs` in this process (worker role), at once again
 * after a pass that found some; passes never overlap (jobs/poller.ts).
 */
export function startDeliveryDispatcher(context: DeliveryContext): DeliveryDispatcher {
  return startPoller({
    intervalMs: context.config.webhooks.pollMs,
    pass: () => dispatchDueDeliveries(context),
    onError: (error) => context.log('outbound delivery dispatch failed', { err: error }),
  });
}

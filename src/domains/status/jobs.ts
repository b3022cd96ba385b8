import { Type } from 'typebox';
import type { Database } from '../../db/connection';
import { defineJob, jobDefinition } from '../../jobs/contract';
import { startPoller } from '../../jobs/poller';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { EVALUATION_INTERVAL_MS, evaluateComponents } from './measurement/components';
import type { ResponseWindow } from './measurement/response-window';
import { type MailSender, sendDueMail, smtpSender } from './subscriptions/mail';
import { subscriberNotifier } from './subscriptions/notify';
import type { SubscriptionContext } from './subscriptions/service';

/** The minute backstop of status mail sending (docs/status.md#e-mail). */
export const SEND_STATUS_MAIL = defineJob({
  name: 'status.send-mail',
  payload: Type.Object({}),
  expireInSeconds: 600,
  retryLimit: 0,
  schedule: '* * * * *',
});

/**
 * Status mail is sent by the workers, never in a request: every worker's mail dispatcher
 * (startStatusMailDispatcher) looks every `statusMail.pollMs`, and this scheduled job every
 * minute. The outbox rows hold the state (attempts, next attempt, lease), so a worker that dies
 * mid-send leaves a lease that runs out and the message is tried again.
 */
export function statusJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(SEND_STATUS_MAIL, async () => {
      const sender = smtpSender(deps.config.statusMail);
      try {
        await sendDueMail(deps.database.system, deps.config.statusMail, sender);
      } finally {
        sender?.close();
      }
    }),
  ];
}

export interface MailDispatcher {
  stop: () => Promise<void>;
}

/**
 * Sends due status mail every `statusMail.pollMs` in this process, at once again after a pass
 * that tried some (jobs/poller.ts); nothing without SMTP.
 */
export function startStatusMailDispatcher(
  deps: JobDeps,
  sender: MailSender | null = smtpSender(deps.config.statusMail),
): MailDispatcher {
  if (!sender) return { stop: async () => {} };
  const poller = startPoller({
    intervalMs: deps.config.statusMail.pollMs,
    pass: () => sendDueMail(deps.database.system, deps.config.statusMail, sender),
    onError: (error) => deps.log('status mail dispatch failed', { err: error }),
  });
  return {
    stop: async () => {
      await poller.stop();
      sender.close();
    },
  };
}

export interface StatusEvaluator {
  stop: () => Promise<void>;
}

/**
 * Measures the components every `intervalMs` in a process that serves the API (its response
 * window is the API component's measurement), whether or not anyone reads the status: an outage
 * while nobody looks is still counted, and its change mailed and sent to webhook subscribers.
 * Several processes may run one: the evaluation's lock and freshness check make a burst one.
 */
export function startStatusEvaluator(deps: {
  database: Database;
  responseWindow: ResponseWindow;
  subscriptions: SubscriptionContext;
  log: (message: string, details?: object) => void;
  intervalMs?: number;
}): StatusEvaluator {
  const notify = subscriberNotifier(deps.subscriptions);
  const intervalMs = deps.intervalMs ?? EVALUATION_INTERVAL_MS;
  const poller = startPoller({
    intervalMs,
    pass: async () => {
      // Each tick measures; another process's evaluation within the interval counts for it.
      await evaluateComponents(deps.database, deps.responseWindow, {
        notify,
        maxAgeMs: intervalMs - 1,
      });
      return 0;
    },
    onError: (error) => deps.log('status evaluation failed', { err: error }),
  });
  return poller;
}

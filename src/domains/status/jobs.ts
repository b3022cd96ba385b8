import { startPoller } from '../../jobs/poller';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { type MailSender, sendDueMail, smtpSender } from './mail';

/** The minute backstop of status mail sending (docs/status.md#e-mail). */
export const SEND_STATUS_MAIL_JOB = 'status.send-mail';

/**
 * Status mail is sent by the workers, never in a request: every worker's mail dispatcher
 * (startStatusMailDispatcher) looks every `statusMail.pollMs`, and this scheduled job every
 * minute. The outbox rows hold the state (attempts, next attempt, lease), so a worker that dies
 * mid-send leaves a lease that runs out and the message is tried again.
 */
export function statusJobs(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    {
      name: SEND_STATUS_MAIL_JOB,
      expireInSeconds: 600,
      retryLimit: 0,
      schedule: '* * * * *',
      handle: async () => {
        const sender = smtpSender(deps.config.statusMail);
        try {
          await sendDueMail(deps.database.system, deps.config.statusMail, sender);
        } finally {
          sender?.close();
        }
      },
    },
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

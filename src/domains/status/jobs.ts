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

/** Sends due status mail every `statusMail.pollMs` in this process; nothing without SMTP. */
export function startStatusMailDispatcher(
  deps: JobDeps,
  sender: MailSender | null = smtpSender(deps.config.statusMail),
): MailDispatcher {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = (busy: boolean) => {
    if (stopped || !sender) return;
    timer = setTimeout(tick, busy ? 0 : deps.config.statusMail.pollMs);
    timer.unref();
  };
  const tick = () => {
    running = sendDueMail(deps.database.system, deps.config.statusMail, sender)
      .then((tried) => schedule(tried > 0))
      .catch((error) => {
        deps.log('status mail dispatch failed', { err: error });
        schedule(false);
      });
  };
  schedule(false);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      sender?.close();
    },
  };
}

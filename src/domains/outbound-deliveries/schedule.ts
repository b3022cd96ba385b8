/**
 * The retry schedule (docs/integrations.md#retries): the wait after failed attempt n is
 * min(cap, base · 2^(n−1)) plus up to a quarter of it as jitter, so receivers that failed
 * together are not all retried in the same second. Jitter only adds, so the schedule's span is
 * at least the sum of the un-jittered waits.
 */
export interface RetrySchedule {
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
}

export const JITTER_RATIO = 0.25;

/** The wait before attempt `failedAttempt + 1`, in milliseconds. */
export function retryDelayMs(
  schedule: RetrySchedule,
  failedAttempt: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(failedAttempt - 1, 0), 40);
  const wait = Math.min(schedule.retryMaxDelayMs, schedule.retryBaseMs * 2 ** exponent);
  return Math.round(wait * (1 + JITTER_RATIO * random()));
}

/** The shortest time from the first attempt to the last (no jitter). */
export function minimumSpanMs(schedule: RetrySchedule): number {
  let total = 0;
  for (let attempt = 1; attempt < schedule.maxAttempts; attempt++) {
    total += retryDelayMs(schedule, attempt, () => 0);
  }
  return total;
}

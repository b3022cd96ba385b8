import type { JobObserver } from '../../src/domains/job-deps';

/**
 * A job observer that records the scan ends reported to it (`scanFinished`: the outcome, in
 * order) and ignores the rest, for tests that set it as `t.jobDeps.observe`.
 */
export function scanEndRecorder(): { observer: JobObserver; ends: string[] } {
  const ends: string[] = [];
  const observer: JobObserver = {
    jobFinished: () => {},
    scanFinished: (outcome, seconds) => {
      // A duration from claim to the final state; a negative one is a clock read wrongly.
      ends.push(seconds >= 0 ? outcome : `${outcome} (negative duration ${seconds})`);
    },
    enrichmentFinished: () => {},
    registryFetched: () => {},
    feedFetched: () => {},
  };
  return { observer, ends };
}

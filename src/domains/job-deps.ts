import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { SecretBox } from '../security/secret-box';

/**
 * What background work reports as it finishes (docs/operations.md#metrics). The composition root
 * implements it with the service's metrics; domains only call it, so they know no metrics.
 */
export interface JobObserver {
  jobFinished: (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;
  /** A scan reached a final state in a run: completed, failed or cancelled. */
  scanFinished: (outcome: string, seconds: number) => void;
  /** One enrichment pass (`enrich` or `refresh`) and its packages' outcomes. */
  enrichmentFinished: (job: string, outcomes: Record<string, number>, seconds: number) => void;
  /** One package-metadata request to an ecosystem's registry. */
  registryFetched: (ecosystem: string, outcome: string, seconds: number) => void;
  /** One advisory feed sync. */
  feedFetched: (feed: string, outcome: string, seconds: number) => void;
}

/**
 * What domain job handlers get: the same dependencies as the HTTP app, minus HTTP. Built by the
 * composition root (src/service.ts for the worker, test/support/test-app.ts for tests).
 */
export interface JobDeps {
  database: Database;
  config: Config;
  secretBox: SecretBox;
  log: (message: string, details?: object) => void;
  /** A warning an operator must act on (absent: logged through `log`). */
  warn?: (message: string, details?: object) => void;
  /** Absent: nothing observes (tests that do not look at metrics). */
  observe?: JobObserver;
}

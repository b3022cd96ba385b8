import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { SecretBox } from '../security/secret-box';

/**
 * What domain job handlers get: the same dependencies as the HTTP app, minus HTTP. Built by the
 * composition root (src/service.ts for the worker, test/support/test-app.ts for tests).
 */
export interface JobDeps {
  database: Database;
  config: Config;
  secretBox: SecretBox;
  log: (message: string, details?: object) => void;
}

/**
 * Old path of the scenario builders (test/support/scenarios): kept so tests written before the
 * move still compile. New tests import from test/support/scenarios.
 */
export { importJsonl } from './scenarios/advisories';
export { insertRepository } from './scenarios/repositories';
export { type Dep, scanWith } from './scenarios/scans';

/** Old path of the scan builders (test/support/scenarios/scans.ts), kept for older tests. */
export { testRepository } from './scenarios/repositories';
export { type ScannedDependency, storeScan } from './scenarios/scans';

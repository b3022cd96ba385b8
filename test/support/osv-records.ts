/** Old path of test/support/scenarios/advisory-records.ts, kept for tests written before it. */
export {
  jsonl,
  npmRange,
  osvRecord,
  type RecordOptions,
} from './scenarios/advisory-records';

import { strToU8 } from 'fflate';
import { ADVISORY_CHANGES } from '../../../src/domains/exposures/matching/rematch-request';
import { importRecords } from '../../../src/intel/advisory-store/import';
import { type ReadResult, readRecordsFromBytes } from '../../../src/intel/advisory-store/read';
import type { TestApp } from '../test-app';
import { jsonl } from './advisory-records';

/** Loads OSV records into the shared advisory store the way an import does (rematch queued). */
export async function importJsonl(t: TestApp, records: object[]) {
  const read: ReadResult = { records: [], rejected: [], notAdvisories: [] };
  readRecordsFromBytes(strToU8(jsonl(records)), 'test.jsonl', read);
  return importRecords(t.database, read, ADVISORY_CHANGES);
}

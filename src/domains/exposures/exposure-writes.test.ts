import { describe, expect, it } from 'vitest';
import { tableWrites, writesIn, writesOutside } from '../../../test/support/table-writes';

/**
 * The exposures domain owns its table: other domains (triage rules, VEX import) decide, and ask
 * it to write (./automatic/system-status.ts for the changes nobody made by hand). The audit log is written
 * by its store, and by that one statement, which must audit in the update's statement.
 */
describe('who writes exposures and the audit log', () => {
  it('only the exposures domain writes vulnerability_exposures', () => {
    expect(writesOutside(['vulnerability_exposures'], ['domains/exposures/'])).toEqual([]);
  });

  it('only the audit-log store and the system status changes write audit_log', () => {
    expect(
      writesOutside(
        ['audit_log'],
        ['domains/audit-log/store.ts', 'domains/exposures/automatic/system-status.ts'],
      ),
    ).toEqual([]);
  });

  it('the owners do write them (the patterns match real code)', () => {
    expect(
      writesIn('domains/exposures/automatic/system-status.ts', ['vulnerability_exposures']),
    ).not.toEqual([]);
    expect(writesIn('domains/exposures/automatic/system-status.ts', ['audit_log'])).not.toEqual([]);
    expect(writesIn('domains/audit-log/store.ts', ['audit_log'])).not.toEqual([]);
  });

  it('catches the spellings a stray write would use', () => {
    const table = ['vulnerability_exposures'];
    expect(tableWrites('UPDATE vulnerability_exposures e SET', table)).toHaveLength(1);
    expect(tableWrites(".updateTable('vulnerability_exposures')", table)).toHaveLength(1);
    expect(tableWrites("db.updateTable('vulnerability_exposures as e')", table)).toHaveLength(1);
    expect(tableWrites('FROM vulnerability_exposures e', table)).toHaveLength(0);
    expect(tableWrites("db.selectFrom('vulnerability_exposures')", table)).toHaveLength(0);
  });
});

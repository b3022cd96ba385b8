import { describe, expect, it } from 'vitest';
import { canonicalId, compareCanonical, groupAdvisories, latestById } from './aliases';
import { parseOsvRecord } from './parse';
import type { Advisory } from './types';

function advisory(
  id: string,
  aliases: string[] = [],
  extra: Record<string, unknown> = {},
): Advisory {
  const result = parseOsvRecord({ id, modified: '2024-01-01T00:00:00Z', aliases, ...extra });
  if (!result.ok) throw new Error(result.reasons.join('; '));
  return result.advisory;
}

function shape(groups: ReturnType<typeof groupAdvisories>) {
  return groups.map((g) => ({ id: g.id, ids: g.ids, aliases: g.aliases }));
}

describe('alias grouping', () => {
  it('joins records that name each other, transitively through an alias no record owns', () => {
    const groups = groupAdvisories([
      advisory('GO-2024-2901', ['CVE-2024-30001']),
      advisory('GHSA-6vm3-jj99-7229', ['CVE-2024-30001']),
      advisory('PYSEC-2024-17', ['GHSA-6vm3-jj99-7229']),
      advisory('RUSTSEC-2024-0001'),
    ]);
    expect(shape(groups)).toEqual([
      {
        id: 'CVE-2024-30001',
        ids: ['GHSA-6vm3-jj99-7229', 'GO-2024-2901', 'PYSEC-2024-17'],
        aliases: ['GHSA-6vm3-jj99-7229', 'GO-2024-2901', 'PYSEC-2024-17'],
      },
      { id: 'RUSTSEC-2024-0001', ids: ['RUSTSEC-2024-0001'], aliases: [] },
    ]);
  });

  it('does not join through `related`', () => {
    const groups = groupAdvisories([
      advisory('RUSTSEC-2022-0090', [], { related: ['RUSTSEC-2022-0089'] }),
      advisory('RUSTSEC-2022-0089'),
    ]);
    expect(groups.map((g) => g.id)).toEqual(['RUSTSEC-2022-0089', 'RUSTSEC-2022-0090']);
  });

  it('gives the same groups and ids whatever the input order', () => {
    const records = [
      advisory('x_RUBYSEC-rack-CVE-2020-8184', ['CVE-2020-8184', 'GHSA-j6w9-fv6q-3q52']),
      advisory('GHSA-j6w9-fv6q-3q52', ['CVE-2020-8184']),
      advisory('OSV-2020-1', ['GHSA-aaaa-bbbb-cccc']),
      advisory('GHSA-aaaa-bbbb-cccc'),
    ];
    const forward = shape(groupAdvisories(records));
    const backward = shape(groupAdvisories([...records].reverse()));
    expect(backward).toEqual(forward);
    expect(forward.map((g) => g.id)).toEqual(['CVE-2020-8184', 'GHSA-aaaa-bbbb-cccc']);
  });

  it('a withdrawn member does not raise the severity of a live flaw; all withdrawn → withdrawn', () => {
    const live = advisory('GHSA-live-0000-0001', ['CVE-2024-1'], {
      database_specific: { severity: 'LOW' },
    });
    const gone = advisory('GO-2024-1', ['CVE-2024-1'], {
      withdrawn: '2024-02-01T00:00:00Z',
      database_specific: { severity: 'CRITICAL' },
    });
    const [group] = groupAdvisories([live, gone]);
    expect(group!.severity.rating).toBe('low');
    expect(group!.withdrawn).toBe(false);
    const [alone] = groupAdvisories([gone]);
    expect(alone!.withdrawn).toBe(true);
    expect(alone!.severity.rating).toBe('critical');
  });
});

describe('canonical id rule', () => {
  it.each([
    [['GHSA-xxxx-yyyy-zzzz', 'CVE-2021-44228', 'GO-2021-0001'], 'CVE-2021-44228'],
    // CVE numbers compare numerically, not as strings.
    [['CVE-2021-100000', 'CVE-2021-9999'], 'CVE-2021-9999'],
    [['CVE-2022-1', 'CVE-2021-99999'], 'CVE-2021-99999'],
    [['PYSEC-2021-1', 'GHSA-bbbb-cccc-dddd', 'GHSA-aaaa-cccc-dddd'], 'GHSA-aaaa-cccc-dddd'],
    [['x_FOP-a-b', 'RUSTSEC-2020-0001'], 'RUSTSEC-2020-0001'],
    [['x_RUBYSEC-a', 'x_FOP-b'], 'x_FOP-b'],
  ])('%j → %s', (ids, expected) => {
    expect(canonicalId(ids)).toBe(expected);
    expect(canonicalId([...ids].reverse())).toBe(expected);
  });

  it('is a total order', () => {
    expect(compareCanonical('CVE-2020-1', 'CVE-2020-1')).toBe(0);
    expect(Math.sign(compareCanonical('GO-1', 'PYSEC-1'))).toBe(-1);
  });
});

describe('latestById', () => {
  it('keeps the newest modified per id', () => {
    const old = advisory('GHSA-same-0000-0001', [], { summary: 'old' });
    const newer = parseOsvRecord({
      id: 'GHSA-same-0000-0001',
      modified: '2025-01-01T00:00:00Z',
      summary: 'new',
    });
    if (!newer.ok) throw new Error('bad');
    expect(latestById([newer.advisory, old]).map((a) => a.summary)).toEqual(['new']);
    expect(latestById([old, newer.advisory]).map((a) => a.summary)).toEqual(['new']);
  });
});

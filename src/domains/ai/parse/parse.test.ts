import { describe, expect, it } from 'vitest';
import { periodIn, startOfLocalDay } from './dates';
import { vulnerabilityIdsIn } from './ids';
import { packagesIn } from './packages';
import { parseQuestion } from './question';

// Wednesday 9 December 2026, 12:00 UTC.
const NOW = new Date('2026-12-09T12:00:00Z');
const period = (text: string, zone = 'UTC') => {
  const p = periodIn(text, NOW, zone);
  return p && [p.from.toISOString(), p.to.toISOString()];
};

describe('question parser', () => {
  it('finds vulnerability ids of every kind, in store spelling', () => {
    expect(
      vulnerabilityIdsIn(
        'cve-2024-35195, GHSA-9WX4-H78V-VM56, pysec-2023-74, RUSTSEC-2020-0071, go-2024-2611, MAL-2026-1234, OSV-2021-1, DSA-5678-1, RHSA-2024:1234',
      ),
    ).toEqual([
      'CVE-2024-35195',
      'GHSA-9wx4-h78v-vm56',
      'PYSEC-2023-74',
      'RUSTSEC-2020-0071',
      'GO-2024-2611',
      'MAL-2026-1234',
      'OSV-2021-1',
      'DSA-5678-1',
      'RHSA-2024:1234',
    ]);
    expect(vulnerabilityIdsIn('no ids here, just GO and CVE words')).toEqual([]);
  });

  it('reads package names with scopes, versions and ecosystems', () => {
    expect(packagesIn('where is @acme/ui@1.2.3 used')).toEqual([
      { name: '@acme/ui', ecosystem: 'npm', version: '1.2.3' },
    ]);
    expect(packagesIn('who uses requests==2.31.0?')).toEqual([
      { name: 'requests', ecosystem: 'PyPI', version: '2.31.0' },
    ]);
    expect(packagesIn('usage of pkg:npm/%40scope/name@1.0.0')).toEqual([
      { name: '@scope/name', ecosystem: 'npm', version: '1.0.0' },
    ]);
    expect(packagesIn('is org.apache.logging.log4j:log4j-core:2.14.1 used')[0]).toEqual({
      name: 'org.apache.logging.log4j:log4j-core',
      ecosystem: 'Maven',
      version: '2.14.1',
    });
    expect(packagesIn('who uses github.com/gin-gonic/gin@v1.9.0')[0]?.ecosystem).toBe('Go');
    expect(packagesIn('which repositories use lodash?')).toEqual([
      { name: 'lodash', ecosystem: null, version: null },
    ]);
    expect(packagesIn('which repositories use the package?')).toEqual([]);
  });

  it('reads relative periods in the asker’s time zone, weeks from Monday', () => {
    expect(period('since monday')).toEqual(['2026-12-07T00:00:00.000Z', NOW.toISOString()]);
    expect(period('last week')).toEqual(['2026-11-30T00:00:00.000Z', '2026-12-07T00:00:00.000Z']);
    expect(period('yesterday')).toEqual(['2026-12-08T00:00:00.000Z', '2026-12-09T00:00:00.000Z']);
    expect(period('in q3')).toEqual(['2026-07-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z']);
    expect(period('in q1 2025')).toEqual(['2025-01-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z']);
    expect(period('in december')?.[0]).toBe('2026-12-01T00:00:00.000Z');
    expect(period('in february')?.[0]).toBe('2026-02-01T00:00:00.000Z');
    expect(period('between 2026-01-01 and 2026-01-31')).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
    ]);
    expect(period('since yesterday', 'America/New_York')).toEqual([
      '2026-12-08T05:00:00.000Z',
      NOW.toISOString(),
    ]);
    expect(period('yesterday', 'Pacific/Auckland')?.[0]).toBe('2026-12-08T11:00:00.000Z');
    expect(period('nothing temporal')).toBeNull();
  });

  it('finds local midnight across a daylight-saving change', () => {
    expect(startOfLocalDay({ year: 2026, month: 3, day: 29 }, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-28T23:00:00.000Z',
    );
    expect(startOfLocalDay({ year: 2026, month: 3, day: 30 }, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T22:00:00.000Z',
    );
  });

  it('reads synonyms, repositories, limits and write requests', () => {
    const q = parseQuestion('Top 5 moderate golang vulns in the payments repo', NOW);
    expect(q.severities).toEqual(['medium']);
    expect(q.ecosystems).toEqual(['Go']);
    expect(q.repository).toBe('payments');
    expect(q.limit).toBe(5);
    expect(parseQuestion('what got worse', NOW).ecosystems).toEqual([]);
    expect(parseQuestion('Delete all repositories', NOW).asksToWrite).toBe(true);
    expect(parseQuestion('Which exceptions expire within 3 days?', NOW).horizonHours).toBe(72);
  });
});

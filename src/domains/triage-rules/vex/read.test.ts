import { describe, expect, it } from 'vitest';
import { VEX_JUSTIFICATIONS } from '../../exposures/state-machine';
import { OPENVEX_JUSTIFICATIONS, readVexDocument } from './documents';
import { readVexStatements } from './read';
import {
  type Decision,
  JUSTIFICATION_FROM_OPENVEX,
  OPENVEX_JUSTIFICATION_OF,
  productPurl,
  writeCycloneDxVex,
  writeOpenVex,
} from './write';

const context = {
  author: 'A',
  toolName: 'Driftwatch',
  toolVersion: '0',
  issuedAt: new Date('2026-12-01T00:00:00Z'),
  scope: 't:*',
};
const decision = (over: Partial<Decision>): Decision => ({
  vulnerability: 'CVE-2026-1',
  status: 'not_affected',
  justification: null,
  reason: null,
  expiresAt: null,
  decidedAt: new Date('2026-11-01T00:00:00Z'),
  products: [{ ecosystem: 'npm', packageName: 'a', versionRange: null, repositoryUrl: null }],
  ...over,
});
const readBack = (document: Record<string, unknown>) =>
  readVexStatements(readVexDocument(document)).map((s) => s.decision);

const doc = (statement: object) => ({
  '@context': 'https://openvex.dev/ns/v0.2.0',
  '@id': 'https://example.test/vex',
  author: 'x',
  timestamp: '2026-01-01T00:00:00Z',
  version: 1,
  statements: [{ status: 'fixed', ...statement }],
});

describe('VEX vocabularies and products', () => {
  it('every OpenVEX justification comes back as itself after a stay in the CycloneDX vocabulary', () => {
    for (const justification of OPENVEX_JUSTIFICATIONS) {
      if (justification === 'component_not_present') continue; // a false_positive rule
      const kept = JUSTIFICATION_FROM_OPENVEX[justification];
      expect(OPENVEX_JUSTIFICATION_OF[kept]).toBe(justification);
    }
    for (const justification of VEX_JUSTIFICATIONS) {
      expect(OPENVEX_JUSTIFICATIONS).toContain(OPENVEX_JUSTIFICATION_OF[justification]);
    }
  });

  it('finds the advisory identifier in the name, the aliases or the end of @id', () => {
    const read = (vulnerability: object) =>
      readVexStatements(
        readVexDocument(doc({ vulnerability, products: [{ '@id': 'pkg:npm/a' }] })),
      )[0]?.vulnerability;
    expect(read({ name: 'CVE-2026-1' })).toBe('CVE-2026-1');
    expect(read({ name: 'log4shell', aliases: ['GHSA-jfh8-c2jp-5v3q'] })).toBe(
      'GHSA-jfh8-c2jp-5v3q',
    );
    expect(read({ name: 'x', '@id': 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228' })).toBe(
      'CVE-2021-44228',
    );
    expect(read({ name: 'no identifier here' })).toBeNull();
  });

  it('a range travels as a vers qualifier and comes back as the range', () => {
    const purl = productPurl({
      ecosystem: 'npm',
      packageName: '@scope/pkg',
      versionRange: 'vers:npm/>=1.0.0|<2.0.0',
      repositoryUrl: null,
    });
    const [statement] = readVexStatements(
      readVexDocument(doc({ vulnerability: { name: 'CVE-1' }, products: [{ '@id': purl }] })),
    );
    expect(statement?.products[0]).toMatchObject({
      purl: 'pkg:npm/%40scope/pkg',
      versionRange: 'vers:npm/>=1.0.0|<2.0.0',
    });
    expect(
      productPurl({
        ecosystem: 'npm',
        packageName: 'a',
        versionRange: 'vers:npm/1.2.3',
        repositoryUrl: null,
      }),
    ).toBe('pkg:npm/a@1.2.3');
  });

  it('every one of the nine justifications comes back as itself through OpenVEX, reason intact', () => {
    const decisions = VEX_JUSTIFICATIONS.flatMap((justification) => [
      decision({ vulnerability: `CVE-2026-${justification}`, justification, reason: null }),
      decision({ vulnerability: `CVE-2026-${justification}`, justification, reason: 'why: so' }),
    ]);
    const read = readBack(writeOpenVex(decisions, context));
    expect(read.map((d) => [d?.justification, d?.reason])).toEqual(
      [...VEX_JUSTIFICATIONS].sort().flatMap((j) => [
        [j, null],
        [j, 'why: so'],
      ]),
    );
  });

  it('accepted risks keep each their own expiry through OpenVEX and CycloneDX', () => {
    const decisions = [
      decision({ vulnerability: 'CVE-2026-1', status: 'accepted_risk', reason: 'vendor patch' }),
      decision({ vulnerability: 'CVE-2026-2', status: 'accepted_risk', reason: 'vendor patch' }),
    ];
    decisions[0] = { ...decisions[0], expiresAt: new Date('2027-03-31T00:00:00Z') } as Decision;
    decisions[1] = { ...decisions[1], expiresAt: new Date('2028-06-30T12:00:00Z') } as Decision;
    for (const written of [
      writeOpenVex(decisions, context),
      writeCycloneDxVex(decisions, context),
    ]) {
      expect(readBack(written)).toEqual([
        {
          status: 'accepted_risk',
          justification: null,
          reason: 'vendor patch',
          expiresAt: new Date('2027-03-31T00:00:00Z'),
        },
        {
          status: 'accepted_risk',
          justification: null,
          reason: 'vendor patch',
          expiresAt: new Date('2028-06-30T12:00:00Z'),
        },
      ]);
    }
    const plain = readBack(
      doc({
        vulnerability: { name: 'CVE-1' },
        products: [{ '@id': 'pkg:npm/a' }],
        status: 'affected',
        action_statement: 'will_not_fix',
      }),
    );
    expect(plain[0]).toMatchObject({ reason: 'will_not_fix', expiresAt: null });
  });
});

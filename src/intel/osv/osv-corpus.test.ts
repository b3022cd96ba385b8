import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../../test/support/shared-data';
import { AdvisoryIndex, affectsVersion } from './match';
import { parseOsvText } from './parse';
import type { Advisory, AffectedPackage } from './types';

/**
 * The real OSV corpus (../shared/data/osv, see its MANIFEST.md) through the parser and the
 * matcher: every record parses, and the edge cases the corpus carries on purpose behave as the
 * OSV evaluation rules say — for every ecosystem in it.
 */

const FILES = [
  'GHSA.harvested.jsonl',
  'Go.jsonl',
  'Packagist.derived.jsonl',
  'PyPI.jsonl',
  'RubyGems.derived.jsonl',
  'crates.io.jsonl',
  'npm.ghsa.jsonl',
  'npm.nodejs-sec.derived.jsonl',
  'npm.retirejs.derived.jsonl',
];

/** MANIFEST.md's withdrawn column. */
const WITHDRAWN: Record<string, number> = {
  'Go.jsonl': 17,
  'crates.io.jsonl': 13,
  'PyPI.jsonl': 10,
  'npm.ghsa.jsonl': 2,
};

describe.skipIf(!sharedDataDir)(
  `OSV corpus edge cases${sharedDataDir ? '' : ` (skipped: ${SHARED_DATA_MISSING})`}`,
  () => {
    const byFile = new Map<string, Advisory[]>();
    const all: Advisory[] = [];
    const byId = new Map<string, Advisory>();

    beforeAll(() => {
      const present = readdirSync(join(sharedDataDir!, 'osv'));
      for (const file of FILES) expect(present).toContain(file);
      for (const file of FILES) {
        const parsed = parseOsvText(readFileSync(join(sharedDataDir!, 'osv', file), 'utf8'), file);
        expect(parsed.rejected, file).toEqual([]);
        byFile.set(file, parsed.advisories);
        all.push(...parsed.advisories);
        for (const a of parsed.advisories) byId.set(a.id, a);
      }
    });

    const known = (a: AffectedPackage) => a.ecosystem !== null;

    it('every record parses; record counts as in MANIFEST.md', () => {
      const counts = Object.fromEntries([...byFile].map(([f, list]) => [f, list.length]));
      expect(counts).toEqual({
        'GHSA.harvested.jsonl': 411,
        'Go.jsonl': 4291,
        'Packagist.derived.jsonl': 1592,
        'PyPI.jsonl': 2661,
        'RubyGems.derived.jsonl': 1234,
        'crates.io.jsonl': 1206,
        'npm.ghsa.jsonl': 291,
        'npm.nodejs-sec.derived.jsonl': 467,
        'npm.retirejs.derived.jsonl': 707,
      });
    });

    it('withdrawn records (Go 17, crates.io 13, PyPI 10, npm 2) never match, though their versions would', () => {
      for (const [file, list] of byFile) {
        const withdrawn = list.filter((a) => a.withdrawn !== null);
        expect([file, withdrawn.length]).toEqual([file, WITHDRAWN[file] ?? 0]);
        let wouldMatch = 0;
        for (const advisory of withdrawn) {
          const live: Advisory = { ...advisory, withdrawn: null };
          for (const affected of advisory.affected.filter(known)) {
            // "0" has no version to probe with; 0.0.1 is one in every SemVer-like ordering.
            const fromZero = affected.ranges.some((r) =>
              r.events.some((e) => e.kind === 'introduced' && e.version === '0'),
            );
            const probes = [
              ...affected.versions,
              ...(fromZero ? ['0.0.1'] : []),
              ...affected.ranges.flatMap((r) =>
                r.events
                  .filter((e) => e.kind === 'introduced' && e.version !== '0')
                  .map((e) => e.version),
              ),
            ];
            for (const version of probes) {
              expect(affectsVersion(advisory, affected, version)).toBe(false);
              if (affectsVersion(live, affected, version)) wouldMatch++;
            }
          }
        }
        if (withdrawn.length > 0) expect([file, wouldMatch > 0]).toEqual([file, true]);
      }
    });

    it('enumerated versions always match (most GHSA records carry them)', () => {
      const counts: Record<string, number> = {};
      for (const advisory of all) {
        if (advisory.withdrawn) continue;
        for (const affected of advisory.affected.filter(known)) {
          for (const version of affected.versions) {
            expect([advisory.id, version, affectsVersion(advisory, affected, version)]).toEqual([
              advisory.id,
              version,
              true,
            ]);
            counts[affected.ecosystem!] = (counts[affected.ecosystem!] ?? 0) + 1;
          }
        }
      }
      for (const ecosystem of ['Maven', 'Go', 'PyPI', 'NuGet', 'RubyGems']) {
        expect([ecosystem, (counts[ecosystem] ?? 0) > 0]).toEqual([ecosystem, true]);
      }
    });

    it('single-window ranges, every ecosystem: introduced in, fixed out, last_affected in', () => {
      const checked: Record<string, { introduced: number; fixed: number; lastAffected: number }> =
        {};
      const index = new AdvisoryIndex();
      for (const advisory of all) {
        if (advisory.withdrawn) continue;
        for (const affected of advisory.affected.filter(known)) {
          // Listed versions match on their own; a single window is checked on its bounds alone.
          const ranges = affected.ranges.filter((r) => r.type !== 'GIT');
          if (ranges.length !== 1 || affected.versions.length > 0) continue;
          const events = ranges[0]!.events;
          if (events.length !== 2 || events[0]!.kind !== 'introduced') continue;
          const [open, close] = [{ ...events[0]! }, { ...events[1]! }];
          const only: AffectedPackage = { ...affected, ranges: [ranges[0]!] };
          const probe = { ...advisory, affected: [only] };
          index.add(probe);
          if (index.skippedRanges.some((s) => s.advisoryId === advisory.id)) continue;
          const c = checked[affected.ecosystem!] ?? { introduced: 0, fixed: 0, lastAffected: 0 };
          checked[affected.ecosystem!] = c;
          // A partial bound (`6.0` for npm, `0.1` in a SEMVER range) is no version a dependency
          // can have: probe it as the matcher reads it (`6.0.0`).
          const semverLike =
            ranges[0]!.type === 'SEMVER' || ['npm', 'Go', 'Cargo'].includes(affected.ecosystem!);
          const asVersion = (v: string) =>
            semverLike && /^\d+(\.\d+)?$/.test(v) ? (v.includes('.') ? `${v}.0` : `${v}.0.0`) : v;
          open.version = open.version === '0' ? '0' : asVersion(open.version);
          close.version = asVersion(close.version);
          if (open.version !== '0') {
            expect([advisory.id, open.version, affectsVersion(probe, only, open.version)]).toEqual([
              advisory.id,
              open.version,
              true,
            ]);
            c.introduced++;
          }
          if (close.kind === 'fixed') {
            expect([
              advisory.id,
              close.version,
              affectsVersion(probe, only, close.version),
            ]).toEqual([advisory.id, close.version, false]);
            c.fixed++;
          } else if (close.kind === 'last_affected') {
            expect([
              advisory.id,
              close.version,
              affectsVersion(probe, only, close.version),
            ]).toEqual([advisory.id, close.version, true]);
            c.lastAffected++;
          }
        }
      }
      for (const ecosystem of ['npm', 'PyPI', 'Go', 'Cargo', 'RubyGems', 'Composer', 'Maven']) {
        expect([ecosystem, (checked[ecosystem]?.fixed ?? 0) > 0]).toEqual([ecosystem, true]);
      }
      // last_affected appears in the npm, Packagist, RubyGems, Maven and PyPI sets.
      for (const ecosystem of ['npm', 'Composer', 'RubyGems', 'Maven']) {
        expect([ecosystem, (checked[ecosystem]?.lastAffected ?? 0) > 0]).toEqual([ecosystem, true]);
      }
    });

    it('PyPI: a git hash (with ".patch") in a GIT range fixed; the ECOSYSTEM range still decides', () => {
      const advisory = byId.get('PYSEC-2017-27')!;
      const [affected] = advisory.affected;
      const git = affected!.ranges.find((r) => r.type === 'GIT')!;
      expect(git.events.map((e) => e.version)).toContain(
        'b27f38a67573f4c989710c9bfb726dd4c1eeb929.patch',
      );
      expect(affectsVersion(advisory, affected!, '0.8.1')).toBe(true);
      expect(affectsVersion(advisory, affected!, '0.9.0')).toBe(false);
      // The hash is no version: it never matches as one.
      expect(affectsVersion(advisory, affected!, 'b27f38a67573f4c989710c9bfb726dd4c1eeb929')).toBe(
        false,
      );
    });

    it('ranges whose bounds are no version in their ordering are skipped and named', () => {
      const index = new AdvisoryIndex(all);
      expect(
        index.skippedRanges.map((s) => `${s.advisoryId} ${s.name}: ${s.reason}`).sort(),
      ).toEqual([
        'GHSA-h755-8qp9-cq85 protobufjs: ECOSYSTEM range skipped: fixed "7.2.4, 6.11.4" is not a npm version',
        'PYSEC-2019-125 steam: ECOSYSTEM range skipped: fixed "2019-09-12" is not a PyPI version',
        'PYSEC-2021-371 binderhub: ECOSYSTEM range skipped: fixed "0.2.0-n653" is not a PyPI version',
      ]);
    });

    it('RubyGems records with no vulnerable version (`versions: []`) never match, even unpinned', () => {
      const none = byFile
        .get('RubyGems.derived.jsonl')!
        .filter((a) => a.affected.every((p) => p.ranges.length === 0 && p.versions.length === 0));
      expect(none).toHaveLength(2);
      const index = new AdvisoryIndex(none);
      for (const advisory of none) {
        for (const affected of advisory.affected) {
          expect(
            index.match({
              ecosystem: 'RubyGems',
              name: affected.name,
              version: null,
              resolution: 'unpinned',
            }),
          ).toEqual([]);
          expect(affectsVersion(advisory, affected, '0.0.1')).toBe(false);
        }
      }
    });

    it('GHSA malware with `fixed: ""` matches every version', () => {
      const malware = byFile
        .get('npm.ghsa.jsonl')!
        .filter((a) => a.warnings.some((w) => w.includes('empty, treated as no fixed bound')));
      expect(malware.length).toBeGreaterThan(0);
      for (const advisory of malware) {
        const [affected] = advisory.affected;
        const start = affected!.ranges[0]!.events[0]!.version;
        const first = start === '0' || start === '0.0.0' ? '0.0.1' : start;
        expect([advisory.id, affectsVersion(advisory, affected!, first)]).toEqual([
          advisory.id,
          true,
        ]);
        expect([advisory.id, affectsVersion(advisory, affected!, '999.0.0')]).toEqual([
          advisory.id,
          true,
        ]);
      }
    });

    it('unknown ecosystems (SwiftURL) are kept, not indexed', () => {
      const swift = all.filter((a) => a.affected.some((p) => p.osvEcosystem === 'SwiftURL'));
      expect(swift.length).toBeGreaterThan(0);
      for (const a of swift) {
        expect(
          a.affected
            .filter((p) => p.osvEcosystem === 'SwiftURL')
            .every((p) => p.ecosystem === null),
        ).toBe(true);
      }
    });
  },
);

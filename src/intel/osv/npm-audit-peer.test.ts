import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPeerAdvisories,
  npmDirectMatches,
  type PeerTriple,
  runNpmPeer,
  tripleKey,
} from '../../../test/support/npm-audit-peer';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../../test/support/shared-data';

/**
 * Differential test against npm's own audit (../shared/tools/npm-audit-peer): for every npm
 * package-lock.json in ../shared/data (generated and real), the set of (package, installed
 * version, advisory id) that `driftwatch audit --json` reports as affected equals the set of
 * direct matches npm reports for the same advisories (all three npm OSV sets). The peer only
 * reads package-lock.json, so yarn.lock and pnpm-lock.yaml have no peer answer to compare with.
 *
 * Where the two semantics legitimately differ, the case is named (PRERELEASE_DIFFERENCES) and
 * checked to differ exactly as explained — not silently tolerated.
 */

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const exec = promisify(execFile);
const toolDir = sharedDataDir ? join(sharedDataDir, '..', 'tools', 'npm-audit-peer') : null;
const NPM_SETS = ['npm.ghsa.jsonl', 'npm.nodejs-sec.derived.jsonl', 'npm.retirejs.derived.jsonl'];

function npmAvailable(): boolean {
  try {
    execFileSync('npm', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const skipReason = !sharedDataDir
  ? SHARED_DATA_MISSING
  : !npmAvailable()
    ? 'npm is not on PATH: the npm audit peer cannot run'
    : null;

function findLockfiles(
  dir: string,
  names: readonly string[] = ['package-lock.json', 'npm-shrinkwrap.json'],
  out: string[] = [],
): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') findLockfiles(path, names, out);
    else if (names.includes(entry.name)) out.push(path);
  }
  return out.sort();
}

async function driftwatchTriples(target: string, osv: string): Promise<PeerTriple[]> {
  const cli = join(projectRoot, 'cli', 'driftwatch.js');
  const result = await exec('node', [cli, 'audit', target, '--osv', osv, '--json'], {
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error: { code?: number; stdout?: string }) => {
    // Exit 1 = findings; only 2 is an error.
    if (error.code !== 1 || !error.stdout) throw error;
    return { stdout: error.stdout };
  });
  const report = JSON.parse(result.stdout) as {
    findings: Array<{ name: string; version: string; status: string; advisoryIds: string[] }>;
  };
  const out: PeerTriple[] = [];
  for (const f of report.findings) {
    if (f.status !== 'affected') continue;
    for (const advisoryId of f.advisoryIds)
      out.push({ name: f.name, version: f.version, advisoryId });
  }
  return out;
}

function compare(ours: PeerTriple[], peer: PeerTriple[]) {
  const a = new Set(ours.map(tripleKey));
  const b = new Set(peer.map(tripleKey));
  return {
    onlyDriftwatch: [...a].filter((k) => !b.has(k)).sort(),
    onlyNpm: [...b].filter((k) => !a.has(k)).sort(),
    common: [...a].filter((k) => b.has(k)).length,
  };
}

describe.skipIf(skipReason !== null)(
  `differential: driftwatch audit vs npm audit${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let work: string;
    let osvJsonl: string;
    let bulk: string;
    const lockfiles = sharedDataDir ? findLockfiles(sharedDataDir) : [];
    let totalCommon = 0;
    let otherCommon = 0;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'dw-audit-diff-'));
      const sets = NPM_SETS.map((f) => join(sharedDataDir!, 'osv', f));
      ({ jsonl: osvJsonl, bulk } = await buildPeerAdvisories(toolDir!, sets, work));
    }, 60_000);

    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('finds the generated and real npm lockfiles', () => {
      const names = lockfiles.map((f) => relative(sharedDataDir!, f));
      expect(names).toContain('generated/old-vulnerable/package-lock.json');
      expect(names).toContain('generated/old-vulnerable-lockv1/package-lock.json');
      expect(names.some((n) => n.startsWith('lockfiles/'))).toBe(true);
    });

    for (const lockfile of lockfiles) {
      const name = sharedDataDir ? relative(sharedDataDir, lockfile) : lockfile;
      it(`${name}: same (package, version, advisory) set as npm`, async () => {
        const [report, ours] = await Promise.all([
          runNpmPeer(toolDir!, bulk, dirname(lockfile)),
          driftwatchTriples(lockfile, osvJsonl),
        ]);
        const peer = npmDirectMatches(report, readFileSync(lockfile, 'utf8'));
        const diff = compare(ours, peer);
        expect({ onlyDriftwatch: diff.onlyDriftwatch, onlyNpm: diff.onlyNpm }).toEqual({
          onlyDriftwatch: [],
          onlyNpm: [],
        });
        totalCommon += diff.common;
      }, 180_000);
    }

    it('the comparison is not vacuous: the old vulnerable trees have many matches', () => {
      // 167 matches per old-vulnerable variant (v1, v2, v3) in the shared data.
      expect(totalCommon).toBeGreaterThan(300);
    });

    /**
     * yarn.lock and pnpm-lock.yaml: the peer cannot load them, so npm's matching is reproduced
     * without its lockfile loader — every installed (name, version) that driftwatch extracts is
     * tested against the advisory ranges exactly as npm receives them (osv2bulk.js output) with
     * npm's own semver options. This checks the matching, not the extraction, of these files.
     */
    const otherLockfiles = sharedDataDir
      ? findLockfiles(sharedDataDir, ['yarn.lock', 'pnpm-lock.yaml'])
      : [];
    for (const lockfile of otherLockfiles) {
      const name = sharedDataDir ? relative(sharedDataDir, lockfile) : lockfile;
      it(`${name}: same matches as npm's ranges and semver options`, async () => {
        const advisories = JSON.parse(readFileSync(bulk, 'utf8')) as Record<
          string,
          Array<{ osv_id: string; vulnerable_versions: string }>
        >;
        const report = JSON.parse(
          (
            await exec(
              'node',
              [
                join(projectRoot, 'cli', 'driftwatch.js'),
                'audit',
                lockfile,
                '--osv',
                osvJsonl,
                '--json',
              ],
              {
                maxBuffer: 256 * 1024 * 1024,
              },
            ).catch((error: { code?: number; stdout?: string }) => {
              if (error.code !== 1 || !error.stdout) throw error;
              return { stdout: error.stdout };
            })
          ).stdout,
        );
        const { extractPath } = await import('../../ecosystems/extract-tree');
        const tree = await extractPath(lockfile);
        const npmSide: PeerTriple[] = [];
        for (const file of tree.files) {
          for (const dep of file.dependencies) {
            if (dep.resolution !== 'resolved' || !dep.version) continue;
            for (const adv of Object.hasOwn(advisories, dep.name) ? advisories[dep.name]! : []) {
              const options = { includePrerelease: true, loose: true };
              if (semver.satisfies(dep.version, adv.vulnerable_versions, options)) {
                npmSide.push({ name: dep.name, version: dep.version, advisoryId: adv.osv_id });
              }
            }
          }
        }
        const ours: PeerTriple[] = [];
        for (const f of report.findings as Array<{
          name: string;
          version: string;
          status: string;
          advisoryIds: string[];
        }>) {
          if (f.status !== 'affected') continue;
          for (const advisoryId of f.advisoryIds)
            ours.push({ name: f.name, version: f.version, advisoryId });
        }
        const diff = compare(ours, npmSide);
        expect({ onlyDriftwatch: diff.onlyDriftwatch, onlyNpm: diff.onlyNpm }).toEqual({
          onlyDriftwatch: [],
          onlyNpm: [],
        });
        expect(tree.files.reduce((n, f) => n + f.dependencies.length, 0)).toBeGreaterThan(100);
        otherCommon += diff.common;
      }, 180_000);
    }

    it('the yarn/pnpm comparison is not vacuous either', () => {
      // 11 matches over the six files in the shared data (jest 1, webpack 1, vue core 4, ...).
      expect(otherCommon).toBeGreaterThan(5);
    });

    /**
     * Named semantic differences, on a synthetic lockfile with synthetic advisories:
     * - `introduced: "0"` with no fix: osv2bulk writes `>=0.0.0`, and under SemVer a pre-release
     *   of 0.0.0 (`0.0.0-dev`) is below 0.0.0, so npm does not match it; OSV's "0" means every
     *   version, pre-releases included, so driftwatch does.
     * - A pre-release inside a range (`2.0.0-beta.1` in `>=1.0.0 <2.0.0`) and below a lower bound
     *   (`1.0.0-rc.1` under `>=1.0.0`) agree: npm tests with includePrerelease.
     */
    it('prerelease: differences only where named (introduced "0" vs `>=0.0.0`)', async () => {
      const dir = join(work, 'prerelease');
      mkdirSync(dir, { recursive: true });
      const packages: Record<string, unknown> = { '': { name: 'pre', version: '1.0.0' } };
      const deps: Record<string, string> = {};
      const installed: Array<[string, string]> = [
        ['pre-open', '0.0.0-dev'],
        ['pre-inside', '2.0.0-beta.1'],
        ['pre-below', '1.0.0-rc.1'],
        ['pre-fixed', '1.5.0-alpha'],
      ];
      for (const [pkg, version] of installed) {
        packages[`node_modules/${pkg}`] = { version, resolved: `https://registry.invalid/${pkg}` };
        deps[pkg] = version;
      }
      (packages[''] as Record<string, unknown>).dependencies = deps;
      writeFileSync(
        join(dir, 'package-lock.json'),
        JSON.stringify({ name: 'pre', version: '1.0.0', lockfileVersion: 3, packages }),
      );
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pre', dependencies: deps }));
      const record = (id: string, pkg: string, events: object[]) =>
        JSON.stringify({
          id,
          modified: '2024-01-01T00:00:00Z',
          affected: [
            { package: { ecosystem: 'npm', name: pkg }, ranges: [{ type: 'SEMVER', events }] },
          ],
        });
      const osv = join(work, 'prerelease.jsonl');
      writeFileSync(
        osv,
        [
          record('GHSA-pre0-open-0000', 'pre-open', [{ introduced: '0' }]),
          record('GHSA-pre1-insd-0000', 'pre-inside', [
            { introduced: '1.0.0' },
            { fixed: '2.0.0' },
          ]),
          record('GHSA-pre2-belw-0000', 'pre-below', [{ introduced: '1.0.0' }, { fixed: '2.0.0' }]),
          record('GHSA-pre3-fixd-0000', 'pre-fixed', [{ introduced: '1.0.0' }, { fixed: '1.5.0' }]),
        ].join('\n'),
      );
      const { bulk: preBulk } = await buildPeerAdvisories(toolDir!, [osv], dir);
      const [report, ours] = await Promise.all([
        runNpmPeer(toolDir!, preBulk, dir),
        driftwatchTriples(join(dir, 'package-lock.json'), osv),
      ]);
      const peer = npmDirectMatches(report, readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      const diff = compare(ours, peer);
      expect(diff.onlyNpm).toEqual([]);
      expect(diff.onlyDriftwatch).toEqual(['pre-open@0.0.0-dev GHSA-pre0-open-0000']);
      // Agreement on the others: 2.0.0-beta.1 and 1.5.0-alpha are affected, 1.0.0-rc.1 is not.
      expect(new Set(peer.map(tripleKey))).toEqual(
        new Set([
          'pre-inside@2.0.0-beta.1 GHSA-pre1-insd-0000',
          'pre-fixed@1.5.0-alpha GHSA-pre3-fixd-0000',
        ]),
      );
    }, 180_000);
  },
);

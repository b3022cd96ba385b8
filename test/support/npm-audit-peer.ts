import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';

/**
 * Support for the differential test and the audit benchmark: drives ../shared/tools/npm-audit-peer
 * (npm's own `npm audit` against a loopback server answering from an advisory file) and reads its
 * report back as the set of direct matches (package, installed version, advisory id).
 * Test/benchmark code only; nothing in the product imports it.
 */

const run = promisify(execFile);

export interface PeerTriple {
  name: string;
  version: string;
  advisoryId: string;
}

export function tripleKey(t: PeerTriple): string {
  return `${t.name}@${t.version} ${t.advisoryId}`;
}

/** Concatenates OSV JSON Lines files and converts them with the peer's osv2bulk.js. */
export async function buildPeerAdvisories(
  toolDir: string,
  osvFiles: readonly string[],
  workDir: string,
): Promise<{ jsonl: string; bulk: string }> {
  const jsonl = join(workDir, 'advisories.osv.jsonl');
  writeFileSync(jsonl, osvFiles.map((f) => readFileSync(f, 'utf8').trimEnd()).join('\n'));
  const { stdout } = await run('node', [join(toolDir, 'osv2bulk.js'), jsonl], {
    maxBuffer: 256 * 1024 * 1024,
  });
  const bulk = join(workDir, 'advisories.bulk.json');
  writeFileSync(bulk, stdout);
  return { jsonl, bulk };
}

/** Runs `run.sh` (npm audit on loopback) for the lockfile folder; returns npm's JSON report. */
export async function runNpmPeer(toolDir: string, bulk: string, lockDir: string): Promise<unknown> {
  const workDir = mkdtempSync(join(tmpdir(), 'dw-npm-peer-'));
  try {
    const out = join(workDir, 'out.json');
    // npm audit exits 1 when it finds something; the report is what counts.
    await run('bash', [join(toolDir, 'run.sh'), bulk, lockDir, out], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { code?: number }) => {
      if (!existsSync(out) || typeof error.code !== 'number') throw error;
    });
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

type LockNode = { version?: string; dependencies?: Record<string, LockNode> };

/** Installed version of a node path (`node_modules/a/node_modules/b`) in a v1, v2 or v3 lockfile. */
function nodeVersion(lock: Record<string, unknown>, path: string): string | null {
  const packages = lock.packages as Record<string, { version?: string }> | undefined;
  if (packages) return packages[path]?.version ?? null;
  const names = path.split(/(?:^|\/)node_modules\//).filter(Boolean);
  let level = lock.dependencies as Record<string, LockNode> | undefined;
  let node: LockNode | undefined;
  for (const name of names) {
    node = level?.[name];
    level = node?.dependencies;
  }
  return node?.version ?? null;
}

interface NpmVia {
  url?: string;
  range?: string;
}

/**
 * npm's direct matches: for every advisory object in `via` (strings are metavulnerabilities,
 * propagated to parents, not matches), the nodes whose version lies in the range npm computed
 * for it. npm tests with `{ includePrerelease: true, loose: true }`, as here.
 */
export function npmDirectMatches(report: unknown, lockfileText: string): PeerTriple[] {
  const lock = JSON.parse(lockfileText) as Record<string, unknown>;
  const vulnerabilities = (report as { vulnerabilities?: Record<string, unknown> }).vulnerabilities;
  const out = new Map<string, PeerTriple>();
  for (const [name, raw] of Object.entries(vulnerabilities ?? {})) {
    const vuln = raw as { via?: Array<string | NpmVia>; nodes?: string[] };
    for (const via of vuln.via ?? []) {
      if (typeof via === 'string' || !via.url || !via.range) continue;
      const advisoryId = via.url.slice(via.url.lastIndexOf('/') + 1);
      for (const path of vuln.nodes ?? []) {
        const version = nodeVersion(lock, path);
        if (!version) continue;
        if (!semver.satisfies(version, via.range, { includePrerelease: true, loose: true }))
          continue;
        const triple = { name, version, advisoryId };
        out.set(tripleKey(triple), triple);
      }
    }
  }
  return [...out.values()];
}

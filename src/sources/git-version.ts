import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * https clones are pinned to the guard's checked address through `http.curloptResolve`
 * (docs/outbound-guard.md). git added that setting in 2.37.0; an older git ignores it without a
 * word and resolves the name again itself, which would undo the pin (DNS rebinding). So the
 * installed git's version is asked once, when the first https clone needs it (never at import
 * time: a process that clones nothing runs no git), and an older git refuses https clones.
 */
export const CURLOPT_RESOLVE_SINCE: readonly [number, number, number] = [2, 37, 0];

/** What `git --version` prints; injected so tests decide without the installed git. */
export type GitVersionSource = () => Promise<string>;

export type HttpsPinning = { ok: true } | { ok: false; reason: string };

/** `git version 2.39.5`, `git version 2.37.1.windows.1`, `git version 2.30.1 (Apple Git-130)`. */
export function parseGitVersion(text: string): [number, number, number] | null {
  const match = /^git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

function atLeast(found: readonly number[], wanted: readonly number[]): boolean {
  for (let i = 0; i < wanted.length; i++) {
    const a = found[i] ?? 0;
    const b = wanted[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** The decision for one `git --version` answer; `reason` is for the operator's log. */
export function httpsPinningVerdict(versionText: string): HttpsPinning {
  const version = parseGitVersion(versionText);
  const since = CURLOPT_RESOLVE_SINCE.join('.');
  if (!version) {
    return {
      ok: false,
      reason: `https clones are refused: "git --version" answered "${versionText.trim().slice(0, 80)}", not a version; git ${since} or newer is needed to pin https clones (http.curloptResolve)`,
    };
  }
  if (atLeast(version, CURLOPT_RESOLVE_SINCE)) return { ok: true };
  return {
    ok: false,
    reason: `https clones are refused: git ${version.join('.')} is older than ${since} and would ignore http.curloptResolve, the pin to the checked address; upgrade git`,
  };
}

/**
 * A check that asks `source` once and remembers the verdict. A source that fails (git missing,
 * a spawn error) refuses this clone and is asked again next time: a passing fault is no verdict.
 */
export function createHttpsPinningCheck(source: GitVersionSource): () => Promise<HttpsPinning> {
  let verdict: Promise<HttpsPinning> | null = null;
  return () => {
    verdict ??= source().then(httpsPinningVerdict, (error: unknown) => {
      verdict = null;
      return {
        ok: false,
        reason: `https clones are refused: "git --version" failed (${(error as Error).message})`,
      };
    });
    return verdict;
  };
}

const runGitVersion: GitVersionSource = async () =>
  (await promisify(execFile)('git', ['--version'], { timeout: 10_000 })).stdout;

let installed: (() => Promise<HttpsPinning>) | null = null;

/** The installed git's verdict, asked on first use. */
export function installedGitPinning(): Promise<HttpsPinning> {
  installed ??= createHttpsPinningCheck(runGitVersion);
  return installed();
}

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project: the nearest folder above this module with a package.json (src/ or dist/src/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const ROOT = projectRoot();

export interface BuildInfo {
  product: string;
  version: string;
  buildId: string;
  gitSha: string;
  commitDate: string;
  environment: string;
}

export interface CliVersionInfo {
  current: string;
  minimumSupported: string;
}

interface PackageJson {
  version: string;
  driftwatch?: { cliMinimumSupported?: string };
}

export function readPackageJson(): PackageJson {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

/**
 * The deployed build: the version from package.json, the commit from the environment a build
 * system sets (BUILD_GIT_SHA, BUILD_COMMIT_DATE, BUILD_ID) or else from the repository itself.
 */
export function readBuildInfo(environment: string, env = process.env): BuildInfo {
  const { version } = readPackageJson();
  const gitSha = env.BUILD_GIT_SHA || git(['rev-parse', 'HEAD']) || 'unknown';
  const commitDate =
    env.BUILD_COMMIT_DATE || git(['show', '-s', '--format=%cI', 'HEAD']) || 'unknown';
  const buildId =
    env.BUILD_ID || `${version}+${gitSha === 'unknown' ? 'local' : gitSha.slice(0, 12)}`;
  return { product: 'Driftwatch', version, buildId, gitSha, commitDate, environment };
}

export function readCliVersion(): CliVersionInfo {
  const pkg = readPackageJson();
  return {
    current: pkg.version,
    minimumSupported: pkg.driftwatch?.cliMinimumSupported ?? pkg.version,
  };
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { confinedReader, corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { sharedDataDir } from '../../../test/support/shared-data';
import type { ExtractedDependency } from '../types';
import { npm } from './index';

/**
 * The real-world corpus (../shared/data/lockfiles and ../shared/data/generated): every npm-family
 * file parses without errors, entry counts agree with lockfiles/SOURCES.md (differences explained
 * below), and for npm lockfiles the extracted set is exactly the lockfile's installed entries.
 */

const root = sharedDataDir ?? '';
const readTreeFile = confinedReader(root);
const run = corpusRunner(npm, root);

function walk(dir: string, prefix: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(path, prefix));
    else if (npm.extractors.some((e) => e.matches(path))) out.push(path);
  }
  return out;
}

/** `| org/repo | commit | date | path | bytes | format | entries | sha |` → path → entries. */
function sourcesCounts(): Map<string, { format: string; entries: number }> {
  const counts = new Map<string, { format: string; entries: number }>();
  for (const line of readTreeFile('lockfiles/SOURCES.md')?.split('\n') ?? []) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [, repo, , , path, , format, entries] = cells;
    if (!repo?.includes('/') || !path || !format || !entries || !/^\d+$/.test(entries)) continue;
    counts.set(`lockfiles/${repo.split('/')[1]}/${path}`, { format, entries: Number(entries) });
  }
  return counts;
}

/** The lockfile's own installed entries, as `name@version`, one per entry (a multiset). */
function installedEntries(text: string): string[] {
  const data = JSON.parse(text) as {
    packages?: Record<
      string,
      { name?: string; version?: string; link?: boolean; resolved?: string }
    >;
    dependencies?: Record<string, unknown>;
  };
  if (data.packages) {
    return Object.entries(data.packages)
      .filter(([key]) => key.startsWith('node_modules/') || key.includes('/node_modules/'))
      .map(([key, entry]) => {
        const name =
          entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
        return `${name}@${entry.link ? entry.resolved : entry.version}`;
      });
  }
  const out: string[] = [];
  const stack = [data.dependencies ?? {}];
  while (stack.length > 0) {
    for (const [key, entry] of Object.entries(stack.pop() ?? {})) {
      const { version, dependencies } = entry as {
        version: string;
        dependencies?: Record<string, unknown>;
      };
      const alias = /^npm:(@?[^@]+)@(.+)$/.exec(version);
      out.push(alias ? `${alias[1]}@${alias[2]}` : `${key}@${version}`);
      if (dependencies) stack.push(dependencies);
    }
  }
  return out;
}

const label = (d: ExtractedDependency) =>
  `${d.name}@${d.source.kind === 'path' ? d.source.path : d.version}`;
const sorted = (items: string[]) => [...items].sort();

/** yarn v1 blocks that install a real name@version an earlier block already installs. */
function repeatedYarnV1Blocks(text: string): number {
  const seen = new Set<string>();
  let repeated = 0;
  for (const match of text.matchAll(
    /^"?((?:@[^/"\s]+\/)?[^@"\s]+)@([^",\n]*)[^\n]*:\n {2}version "([^"]+)"/gm,
  )) {
    const [, name, range = '', version] = match;
    // `alias@npm:real@range` installs `real`.
    const real = range.startsWith('npm:') ? /^npm:((?:@[^/]+\/)?[^@]+)@/.exec(range)?.[1] : name;
    const key = `${real}@${version}`;
    if (seen.has(key)) repeated++;
    seen.add(key);
  }
  return repeated;
}

/**
 * Where the extracted count deliberately differs from SOURCES.md's "rough" count of lockfile
 * entries; `count` recomputes the difference from the file itself.
 */
const EXPLAINED: Record<string, { reason: string; count: (text: string) => number; less: number }> =
  {
    // Four `alias@npm:real@range` blocks (prettier-2, string-width-cjs, strip-ansi-cjs,
    // wrap-ansi-cjs) install the same real package@version as a plain block: exact duplicates
    // (same name, version, scope) are merged, as for every format.
    'lockfiles/webpack/yarn.lock': { reason: 'alias blocks', count: repeatedYarnV1Blocks, less: 4 },
    // The 71 workspaces (`@jest/monorepo@workspace:.` and the members: the project itself, scope
    // self, like package-lock's `""`) plus six `patch:` entries, each the same package@version as
    // the entry it patches.
    'lockfiles/jest/yarn.lock': {
      reason: 'workspaces + patches',
      count: (text) =>
        text.match(/^"(?:[^"\n]*@workspace:[^"\n]*|[^"\n]*@patch:[^\n]*)":$/gm)?.length ?? 0,
      less: 77,
    },
  };

describeCorpus('npm', () => {
  const files = [...walk('lockfiles', ''), ...walk('generated', '')];
  const counts = sharedDataDir ? sourcesCounts() : new Map();

  it('finds the npm-family files of the corpus', () => {
    const lockfiles = files.filter((f) => !f.endsWith('/package.json'));
    expect(lockfiles).toHaveLength(14);
    expect(files.length - lockfiles.length).toBe(14);
  });

  it.each(files)('%s parses with no errors', (path) => {
    const { result, ms } = run(path);
    expect(result.errors).toEqual([]);
    expect(result.dependencies.length).toBeGreaterThan(0);
    // yarn.lock v1 has no line for the project itself (it is named by package.json only).
    expect(result.dependencies.every((d) => d.line !== null || d.scope === 'self')).toBe(true);
    // JSON formats are fast; YAML ones are bound by the yaml package's own parse time.
    if (path.endsWith('.json')) expect(ms).toBeLessThan(1000);
  });

  it('every npm/yarn/pnpm lockfile in SOURCES.md is covered and its count agrees', () => {
    const npmFamily = [...counts].filter(([, { format }]) => /^(npm|yarn|pnpm) /.test(format));
    expect(npmFamily).toHaveLength(10);
    for (const [path, { entries }] of npmFamily) {
      const { result } = run(path);
      const explained = EXPLAINED[path];
      if (explained) {
        // The explanation is checked against the file, not just asserted.
        const text = readTreeFile(path) ?? '';
        expect(explained.count(text), `${path}: ${explained.reason}`).toBe(explained.less);
      }
      // SOURCES.md counts installed entries; the project itself (scope self) is not one.
      const installed = result.dependencies.filter((d) => d.scope !== 'self');
      expect(installed.length, path).toBe(entries - (explained?.less ?? 0));
    }
  });

  it.each(files.filter((f) => f.endsWith('package-lock.json')))(
    '%s: the extracted set equals the lockfile installed entries',
    (path) => {
      const text = readTreeFile(path) ?? '';
      const { result } = run(path);
      const installed = result.dependencies.filter((d) => d.scope !== 'self');
      expect(sorted(installed.map(label))).toEqual(sorted(installedEntries(text)));
      // The root entry, when it names the project, is reported once as the project itself.
      const root = (JSON.parse(text) as { packages?: Record<string, { name?: string }> })
        .packages?.[''];
      const own = result.dependencies.filter((d) => d.scope === 'self');
      expect(own.map((d) => d.name)).toEqual(root?.name ? [root.name] : own.map((d) => d.name));
      // Each line points at the entry's own key.
      const lines = text.split('\n');
      for (const d of result.dependencies) {
        const keyLine = lines[(d.line ?? 0) - 1] ?? '';
        // The project's line is its `""` entry (v1: the top-level "name").
        if (d.scope === 'self') expect(keyLine).toMatch(/^\s*"(?:|name)": /);
        else expect(keyLine).toMatch(/^\s*"[^"]+": \{$/);
      }
    },
  );

  it('generated v1, v2 and v3 lockfiles of one tree agree', () => {
    const key = (d: ExtractedDependency) => `${d.name}@${d.version} ${d.scope} ${d.direct}`;
    const [v1, v2, v3] = ['-lockv1', '-lockv2', ''].map((suffix) =>
      sorted(
        run(`generated/old-vulnerable${suffix}/package-lock.json`).result.dependencies.map(key),
      ),
    );
    expect(v1).toHaveLength(261); // 260 installed entries and the project itself
    expect(v2).toEqual(v1);
    expect(v3).toEqual(v1);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../test/support/shared-data';
import { type ExtractedFile, extractPath } from './extract-tree';

/**
 * The real-world corpus (../shared/data/lockfiles, listed in its SOURCES.md, and
 * ../shared/data/generated) through the whole engine: every file parses without an error, and
 * per-file entry counts agree with SOURCES.md except for the deliberate differences below.
 * Counts are taken with the lockfile-wins rule off, so a manifest is compared with everything
 * it declares, not with what its lockfile left it.
 */

interface SourceRow {
  /** `<repo folder>/<path>`, the file's place in the corpus. */
  file: string;
  format: string;
  entries: number | null;
}

/** SOURCES.md's table: `| owner/repo | commit | date | path | bytes | format | entries | sha |`. */
function readSources(text: string): SourceRow[] {
  const rows: SourceRow[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 9 || !/^[\w.-]+\/[\w.-]+$/.test(cells[1]!)) continue;
    const folder = cells[1]!.split('/')[1]!;
    const entries = cells[7] === '' ? null : Number(cells[7]);
    rows.push({ file: `${folder}/${cells[4]}`, format: cells[6]!, entries });
  }
  return rows;
}

/**
 * Where the extracted count deliberately differs from SOURCES.md's rough count, and why.
 * Every other counted file must match exactly.
 */
const DIFFERENCES: Record<string, { extracted: number; why: string }> = {
  // Dockerfiles: SOURCES.md counts FROM lines; stage references and `scratch` are no images.
  'storage/Dockerfile': { extracted: 1, why: '4 of the 5 FROM lines name earlier stages' },
  'maybe/Dockerfile': { extracted: 1, why: '2 of the 3 FROM lines name the stage "base"' },
  // (uv/Dockerfile matches by coincidence: FROM scratch is no image, COPY --from=<image> is one.)
  // npm
  'jest/yarn.lock': {
    extracted: 2150,
    why: 'the 71 workspaces (root and members) are the project itself; 6 patch: entries are their npm package again',
  },
  'webpack/yarn.lock': {
    extracted: 1393,
    why: '4 npm: aliases (string-width-cjs@npm:string-width, ...) are packages already listed',
  },
  // Go: go.mod is the dependency list; go.sum only adds checksums (also of unused versions).
  'prometheus/go.mod': {
    extracted: 250,
    why: 'the 2 lines in an exclude block are not requirements',
  },
  'prometheus/go.sum': { extracted: 0, why: 'go.mod beside it is authoritative' },
  'osv-scanner/go.sum': { extracted: 0, why: 'go.mod beside it is authoritative' },
  // Rust / Python: the workspace's own members are the project (reported as scope self).
  'uv/Cargo.lock': { extracted: 683, why: '70 packages without a source are workspace members' },
  'uv/uv.lock': { extracted: 88, why: 'the editable root package is the project itself' },
  // Ruby: one gem version per platform variant (ffi x8, nokogiri x8, tailwindcss-ruby x7).
  'maybe/Gemfile.lock': { extracted: 216, why: '20 platform-specific duplicates of a gem version' },
  // Maven: SOURCES.md counts every <dependency> element.
  'dependency-track/pom.xml': {
    extracted: 18,
    why: '55 dependencyManagement entries only pin versions and 1 belongs to a plugin; the 18 imported BOMs (scope import) count, as build',
  },
  'dependency-track/apiserver/pom.xml': {
    extracted: 91,
    why: "3 of the 94 <dependency> elements are a plugin's or repeat an artifact already listed",
  },
  'spring-petclinic/pom.xml': { extracted: 24, why: '2 <dependency> elements belong to plugins' },
};

/**
 * What SOURCES.md's counts compare with: the dependencies, without the project's own package
 * (scope self), which the extractors report besides them (DIFFERENCES names where SOURCES.md
 * counted the project too).
 */
function dependencyCount(file: ExtractedFile): number {
  return file.dependencies.filter((d) => d.scope !== 'self').length;
}

/** Listed files no extractor claims: configuration, not dependency files. */
const NOT_CLAIMED = [
  'jest/.yarnrc.yml',
  'core/pnpm-workspace.yaml',
  'dd-trace-java/settings.gradle.kts',
];

/** name@version of every installed entry of a package-lock.json (v1 tree or v2/v3 packages). */
function lockfileEntries(text: string): Set<string> {
  const lock = JSON.parse(text) as {
    packages?: Record<string, { name?: string; version?: string; link?: boolean }>;
    dependencies?: Record<string, { version?: string; dependencies?: object }>;
  };
  const out = new Set<string>();
  if (lock.packages) {
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.link || !path.includes('node_modules/')) continue;
      const name =
        entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      out.add(`${name}@${entry.version}`);
    }
    return out;
  }
  const walk = (deps: Record<string, { version?: string; dependencies?: object }> | undefined) => {
    for (const [name, entry] of Object.entries(deps ?? {})) {
      out.add(`${name}@${entry.version}`);
      walk(entry.dependencies as typeof deps);
    }
  };
  walk(lock.dependencies);
  return out;
}

describe.skipIf(!sharedDataDir)(
  `real-world corpus${sharedDataDir ? '' : ` (${SHARED_DATA_MISSING})`}`,
  () => {
    const data = sharedDataDir ?? '';
    const sources = sharedDataDir
      ? readSources(readFileSync(join(data, 'lockfiles', 'SOURCES.md'), 'utf8'))
      : [];
    const folders = sharedDataDir
      ? [
          ...readdirSync(join(data, 'lockfiles'))
            .filter((f) => !f.endsWith('.md'))
            .map((f) => `lockfiles/${f}`),
          ...readdirSync(join(data, 'generated')).map((f) => `generated/${f}`),
        ]
      : [];
    /** `lockfiles/<folder>/<path>` or `generated/<folder>/<path>` → extraction. */
    const extracted = new Map<string, ExtractedFile>();

    beforeAll(async () => {
      for (const folder of folders) {
        const result = await extractPath(join(data, folder), { lockfileWins: false });
        for (const file of result.files) extracted.set(`${folder}/${file.path}`, file);
      }
    }, 120_000);

    it('reads SOURCES.md', () => {
      expect(sources.length).toBe(71);
      expect(extracted.size).toBeGreaterThan(60);
    });

    it('extracts every file without a single error', () => {
      const withErrors = [...extracted.values()].filter((f) => f.errors.length > 0);
      expect(withErrors.map((f) => [f.path, f.errors.slice(0, 3)])).toEqual([]);
    });

    it('claims every listed file except the configuration ones', () => {
      const unclaimed = sources
        .map((s) => s.file)
        .filter((file) => !extracted.has(`lockfiles/${file}`));
      expect(unclaimed).toEqual(NOT_CLAIMED);
    });

    it('agrees with the entry counts of SOURCES.md, differences explained', () => {
      const counted = sources.filter(
        (s) => s.entries !== null && extracted.has(`lockfiles/${s.file}`),
      );
      const actual = Object.fromEntries(
        counted.map((s) => [s.file, dependencyCount(extracted.get(`lockfiles/${s.file}`)!)]),
      );
      const expected = Object.fromEntries(
        counted.map((s) => [s.file, DIFFERENCES[s.file]?.extracted ?? s.entries]),
      );
      expect(actual).toEqual(expected);
      // The table explains only files that exist and do differ.
      for (const [file, { extracted: n }] of Object.entries(DIFFERENCES)) {
        const row = sources.find((s) => s.file === file);
        expect(row?.entries, file).not.toBe(n);
      }
    });

    it('extracts exactly the installed entries of every package-lock.json', () => {
      const locks = [...extracted.entries()].filter(([key]) => key.endsWith('package-lock.json'));
      expect(locks.length).toBeGreaterThanOrEqual(8);
      for (const [key, file] of locks) {
        const text = readFileSync(join(data, key), 'utf8');
        const installed = file.dependencies.filter((d) => d.scope !== 'self');
        const got = new Set(installed.map((d) => `${d.name}@${d.version}`));
        expect([...got].sort(), key).toEqual([...lockfileEntries(text)].sort());
      }
    });

    it('covers every generated project', () => {
      for (const folder of folders.filter((f) => f.startsWith('generated/'))) {
        expect(existsSync(join(data, folder, 'package-lock.json'))).toBe(true);
        expect(
          extracted.get(`${folder}/package-lock.json`)?.dependencies.length,
          folder,
        ).toBeGreaterThan(0);
      }
    });
  },
);

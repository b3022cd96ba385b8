import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseReachability, type ReachabilityDependency, type ReachabilityFact } from './analyse';
import { DEFAULT_REACHABILITY_LIMITS } from './source-tree';

/**
 * The reachability corpus (docs/reachability.md "Precision"): small repositories written for the
 * test, each dependency labelled with the truth (is it loaded when the repository's code runs?).
 */

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'driftwatch-reach-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

type Truth = 'imported' | 'not_imported';
interface Case {
  name: string;
  files: Record<string, string>;
  dependencies: (ReachabilityDependency & { truth: Truth })[];
  expected: Record<string, string>;
}

const dep = (
  ecosystem: string,
  name: string,
  truth: Truth,
  parents: string[] = [],
  scope = 'runtime',
) => ({
  ecosystem,
  name,
  scope,
  parents,
  truth,
});

const CORPUS: Case[] = [
  {
    name: 'npm: ESM, CommonJS, dynamic import, TSX, through the lockfile chain',
    files: {
      'src/index.ts':
        "import express from 'express';\nimport type { Moment } from 'moment';\nconst fp = require('lodash/fp');\n",
      'src/lazy.mjs':
        "// require('left-pad') in a comment\nexport const load = () => import('chalk');\n",
      'src/view.tsx':
        "import React from 'react';\nexport const V = () => <div>{'import(\"nope\")'}</div>;\n",
      'node_modules/left-pad/index.js': "require('left-pad');\n",
    },
    dependencies: [
      dep('npm', 'express', 'imported'),
      dep('npm', 'body-parser', 'imported', ['express']),
      dep('npm', 'qs', 'imported', ['body-parser']),
      dep('npm', 'lodash', 'imported'),
      dep('npm', 'chalk', 'imported'),
      dep('npm', 'react', 'imported'),
      dep('npm', 'moment', 'not_imported'),
      dep('npm', 'left-pad', 'not_imported'),
      dep('npm', 'nope', 'not_imported', ['moment']),
      dep('npm', 'web-app', 'not_imported', [], 'self'),
    ],
    expected: {
      express: 'imported src/index.ts:1 express',
      'body-parser': 'imported src/index.ts:1 express>body-parser',
      qs: 'imported src/index.ts:1 express>body-parser>qs',
      lodash: 'imported src/index.ts:3 lodash',
      chalk: 'imported src/lazy.mjs:2 chalk',
      react: 'imported src/view.tsx:1 react',
      moment: 'not_imported',
      'left-pad': 'not_imported',
      nope: 'not_imported',
      'web-app': 'unknown',
    },
  },
  {
    name: 'npm: a computed require makes the rest unknown',
    files: { 'index.js': "const name = process.env.PLUGIN;\nrequire(name);\nrequire('debug');\n" },
    dependencies: [
      dep('npm', 'debug', 'imported'),
      dep('npm', 'ms', 'imported', ['debug']),
      dep('npm', 'plugin-a', 'imported'),
    ],
    expected: {
      debug: 'imported index.js:3 debug',
      ms: 'imported index.js:3 debug>ms',
      'plugin-a': 'unknown',
    },
  },
  {
    name: 'PyPI: import, from-import, relative, stdlib, distribution names',
    files: {
      'app/__init__.py': '',
      'app/main.py':
        'import os\nimport yaml\nfrom flask import Flask\nfrom .models import User\nfrom app import models\n',
      'app/models.py': 'from dateutil import parser as p\n',
      'tests/test_main.py': 'import pytest\n',
    },
    dependencies: [
      dep('PyPI', 'pyyaml', 'imported'),
      dep('PyPI', 'flask', 'imported'),
      dep('PyPI', 'werkzeug', 'imported', ['flask']),
      dep('PyPI', 'markupsafe', 'imported', ['werkzeug']),
      dep('PyPI', 'python-dateutil', 'imported'),
      dep('PyPI', 'six', 'imported', ['python-dateutil']),
      dep('PyPI', 'pytest', 'imported'),
      dep('PyPI', 'requests', 'not_imported'),
      dep('PyPI', 'urllib3', 'not_imported', ['requests']),
    ],
    expected: {
      pyyaml: 'imported app/main.py:2 pyyaml',
      flask: 'imported app/main.py:3 flask',
      werkzeug: 'imported app/main.py:3 flask>werkzeug',
      markupsafe: 'imported app/main.py:3 flask>werkzeug>markupsafe',
      'python-dateutil': 'imported app/models.py:1 python-dateutil',
      six: 'imported app/models.py:1 python-dateutil>six',
      pytest: 'imported tests/test_main.py:1 pytest',
      requests: 'not_imported',
      urllib3: 'not_imported',
    },
  },
  {
    name: 'PyPI: an import no distribution explains makes the rest unknown',
    files: { 'main.py': 'import mystery\nimport requests\n' },
    dependencies: [
      dep('PyPI', 'requests', 'imported'),
      dep('PyPI', 'mystery-lib', 'imported'),
      dep('PyPI', 'idna', 'imported', ['requests']),
    ],
    expected: {
      requests: 'imported main.py:2 requests',
      idna: 'imported main.py:2 requests>idna',
      'mystery-lib': 'unknown',
    },
  },
  {
    name: 'Go: module paths by longest prefix; go.mod records no edges, so the rest is unknown',
    files: {
      'main.go':
        'package main\n\nimport (\n\t"fmt"\n\t"github.com/gin-gonic/gin/binding"\n\t"example.com/me/internal/x"\n)\n',
    },
    dependencies: [
      dep('Go', 'github.com/gin-gonic/gin', 'imported'),
      dep('Go', 'github.com/gin-gonic', 'not_imported'),
      dep('Go', 'gopkg.in/yaml.v3', 'imported'),
    ],
    expected: {
      'github.com/gin-gonic/gin': 'imported main.go:5 github.com/gin-gonic/gin',
      'github.com/gin-gonic': 'unknown',
      'gopkg.in/yaml.v3': 'unknown',
    },
  },
  {
    name: 'npm without any source file: unknown',
    files: { 'README.md': '# nothing\n' },
    dependencies: [dep('npm', 'express', 'not_imported')],
    expected: { express: 'unknown' },
  },
];

function summary(fact: ReachabilityFact): string {
  if (fact.reachability !== 'imported' || !fact.evidence) return fact.reachability;
  const { file, line, chain } = fact.evidence;
  return `imported ${file}:${line} ${chain.join('>')}`;
}

describe('import-level reachability corpus', () => {
  const tally = {
    imported: { right: 0, wrong: 0 },
    used_by_tooling: { right: 0, wrong: 0 },
    not_imported: { right: 0, wrong: 0 },
    truthImported: 0,
    unknown: 0,
  };

  it.each(CORPUS)('$name', async ({ files, dependencies, expected }) => {
    const facts = await analyseReachability(tree(files), dependencies);
    const got = Object.fromEntries(facts.map((f) => [f.name, summary(f)]));
    expect(got).toEqual(expected);
    for (const fact of facts) {
      const truth = dependencies.find((d) => d.name === fact.name)?.truth;
      if (truth === 'imported') tally.truthImported++;
      if (fact.reachability === 'unknown') tally.unknown++;
      else tally[fact.reachability][fact.reachability === truth ? 'right' : 'wrong']++;
      if (fact.reachability !== 'imported') expect(fact.reason).toEqual(expect.any(String));
    }
  });

  it('precision and recall over the corpus (docs/reachability.md)', () => {
    const precision = tally.imported.right / (tally.imported.right + tally.imported.wrong);
    const recall = tally.imported.right / tally.truthImported;
    const notImportedPrecision =
      tally.not_imported.right / (tally.not_imported.right + tally.not_imported.wrong);
    expect({ precision, notImportedPrecision }).toEqual({ precision: 1, notImportedPrecision: 1 });
    // Imported packages the analysis declines to decide (computed imports, no Go edges) are unknown.
    expect(tally).toEqual({
      imported: { right: 18, wrong: 0 },
      used_by_tooling: { right: 0, wrong: 0 },
      not_imported: { right: 5, wrong: 0 },
      truthImported: 21,
      unknown: 6,
    });
    expect(recall).toBeCloseTo(18 / 21);
  });

  it('hostile trees: oversized files are not read and make the language unknown; symlinks are not followed', async () => {
    const root = tree({
      'big.js': `require('express');\n${'x'.repeat(2048)}`,
      'small.py': 'import requests\n',
    });
    const facts = await analyseReachability(
      root,
      [
        dep('npm', 'express', 'imported'),
        dep('npm', 'other', 'not_imported', ['express']),
        dep('PyPI', 'requests', 'imported'),
      ],
      { ...DEFAULT_REACHABILITY_LIMITS, maxFileBytes: 1024 },
    );
    expect(facts.map(summary)).toEqual(['unknown', 'unknown', 'imported small.py:1 requests']);
    expect(facts[0]?.reason).toContain('big.js');
  });

  it('a syntax error in one file: that language is unknown for packages it does not show imported', async () => {
    const root = tree({ 'a.js': "import x from 'express';\n", 'b.js': 'const = = ;\n' });
    const facts = await analyseReachability(root, [
      dep('npm', 'express', 'imported'),
      dep('npm', 'koa', 'not_imported', ['other']),
    ]);
    expect(facts.map(summary)).toEqual(['imported a.js:1 express', 'unknown']);
    expect(facts[1]?.reason).toBe('b.js could not be parsed');
  });
});

describe('very deep dependency chains', () => {
  it('a chain 200,000 deep is followed without recursion or quadratic chains', async () => {
    const depth = 200_000;
    const dependencies: ReachabilityDependency[] = [];
    for (let i = 0; i < depth; i++) {
      dependencies.push({
        ecosystem: 'npm',
        name: `p${i}`,
        scope: 'runtime',
        parents: i === 0 ? [] : [`p${i - 1}`],
      });
    }
    dependencies.push({ ecosystem: 'npm', name: 'unused', scope: 'runtime', parents: [] });
    const root = tree({ 'index.js': "require('p0');\n" });
    const facts = await analyseReachability(root, dependencies);
    expect(facts).toHaveLength(depth + 1);
    const last = facts.find((f) => f.name === `p${depth - 1}`);
    expect(last?.reachability).toBe('imported');
    // The evidence chain is capped: its head, a marker for the elided middle, its tail.
    expect(last?.evidence?.chain.length).toBeLessThanOrEqual(33);
    expect(last?.evidence?.chain[0]).toBe('p0');
    expect(last?.evidence?.chain.at(-1)).toBe(`p${depth - 1}`);
    expect(last?.evidence?.chain).toContain(`… ${depth - 32} more …`);
    expect(facts.find((f) => f.name === 'unused')?.reachability).toBe('not_imported');
  }, 60_000);
});

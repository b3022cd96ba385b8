import { describe, expect, it } from 'vitest';
import { goImports } from './go-imports';
import { npmPackageOf, pythonDistributionsOf } from './package-names';
import { pythonImports } from './python-imports';

describe('python imports', () => {
  it.each([
    ['import a', ['a@1']],
    ['import a.b.c as d, e', ['a.b.c@1', 'e@1']],
    ['from x.y import (\n  p,\n  q,\n)\nimport z', ['x.y@1', 'z@5']],
    ['from . import sibling\nfrom ..pkg import other\nfrom __future__ import annotations', []],
    ['def f():\n    import inner\n', ['inner@2']],
    ['try: import ujson as json\nexcept ImportError: import json', ['ujson@1', 'json@2']],
    ['x = 1; import after_semicolon', ['after_semicolon@1']],
    [
      's = "import not_this"\n# import nor_this\nt = """\nimport nor_that\n"""\nimport real',
      ['real@6'],
    ],
    ["r = rb'\\x00 import no'\nimport yes", ['yes@2']],
    ['value = x \\\n  + 1\nimport later', ['later@3']],
    [
      'importlib.import_module("plugin.core")\n__import__(\'legacy\')',
      ['plugin.core@1', 'legacy@2'],
    ],
    ['print(import_me)\nx.import_thing = 1', []],
  ])('%j', (text, expected) => {
    const found = pythonImports(text);
    expect(found.imports.map((i) => `${i.module}@${i.line}`)).toEqual(expected);
    expect(found.computed).toEqual([]);
  });

  it('computed importlib / __import__ calls are reported by line; a relative literal is first-party', () => {
    const found = pythonImports(
      'name = "x"\nimportlib.import_module(name)\n__import__(f"{name}")\nimport_module(".sub", "pkg")',
    );
    expect(found.computed.map((c) => c.line)).toEqual([2, 3]);
    expect(found.imports).toEqual([]);
  });

  it('hostile input: unterminated strings and deep brackets stay linear', () => {
    const text = `${'('.repeat(200_000)}\n"${'x'.repeat(200_000)}\n'''${'y\n'.repeat(100_000)}`;
    const started = performance.now();
    expect(pythonImports(text).imports).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('go imports', () => {
  it('single, grouped, aliased, blank, dot and raw imports; stops at the first declaration', () => {
    const text = [
      '// Package x does things.',
      'package x',
      '',
      'import "fmt"',
      'import (',
      '\t"github.com/gin-gonic/gin"',
      '\tyaml "gopkg.in/yaml.v3" // alias',
      '\t_ "github.com/lib/pq"',
      '\t. `golang.org/x/text/language`',
      '\t/* "github.com/not/this" */',
      ')',
      'import ("a.example/one"; "a.example/two")',
      '',
      'var s = `import "github.com/never/read"`',
      'func main() {}',
    ].join('\n');
    expect(goImports(text).map((i) => `${i.path}@${i.line}`)).toEqual([
      'fmt@4',
      'github.com/gin-gonic/gin@6',
      'gopkg.in/yaml.v3@7',
      'github.com/lib/pq@8',
      'golang.org/x/text/language@9',
      'a.example/one@12',
      'a.example/two@12',
    ]);
  });

  it('no package clause: nothing', () => {
    expect(goImports('import "fmt"')).toEqual([]);
  });
});

describe('package names', () => {
  it.each([
    ['lodash', 'lodash'],
    ['lodash/fp', 'lodash'],
    ['@scope/pkg/sub/path', '@scope/pkg'],
    ['./local', null],
    ['/abs', null],
    ['node:fs', null],
    ['fs', null],
    ['fs/promises', null],
    ['@scope', null],
  ])('npm %s → %s', (specifier, name) => {
    expect(npmPackageOf(specifier)).toBe(name);
  });

  it('python modules map to distributions', () => {
    expect(pythonDistributionsOf('yaml')).toContain('pyyaml');
    expect(pythonDistributionsOf('Flask_Login')).toContain('flask-login');
  });
});

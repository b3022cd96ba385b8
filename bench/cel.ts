/**
 * `npx tsx bench/cel.ts`: the two CEL implementations installed (@bufbuild/cel,
 * @marcbachmann/cel-js) on the expressions policies use: compile time (parse + check, once per
 * policy version) and evaluation time (once per dependency), plus what each reports for an
 * unknown field. The choice is recorded in docs/decisions/0006-cel-implementation.md.
 */
import { performance } from 'node:perf_hooks';
import { CelScalar, celEnv, isCelError, mapType, parse, plan } from '@bufbuild/cel';
import { Environment } from '@marcbachmann/cel-js';

const EXPRESSIONS = [
  'vulnerabilities.maxCvss >= 9.0 && vulnerabilities.fixAvailable',
  'dependency.direct && drift.majorsBehind >= 2',
  'dependency.ecosystem == "npm" && dependency.name.startsWith("left-")',
  'vulnerabilities.count > 0 && vulnerabilities.ids.exists(id, id.startsWith("CVE-"))',
  '(drift.deprecated || drift.yanked) && dependency.scope == "runtime"',
];

const facts = {
  dependency: { ecosystem: 'npm', name: 'left-pad', direct: true, scope: 'runtime' },
  vulnerabilities: {
    count: 2n,
    maxCvss: 9.8,
    fixAvailable: true,
    ids: ['CVE-2024-0001', 'GHSA-xxxx-yyyy-zzzz'],
  },
  drift: { majorsBehind: 3n, deprecated: false, yanked: true },
};

const COMPILES = Number(process.env.BENCH_CEL_COMPILES ?? 2000);
const EVALS = Number(process.env.BENCH_CEL_EVALS ?? 200_000);

function time(label: string, runs: number, body: () => void): number {
  for (let i = 0; i < Math.min(200, runs); i++) body();
  const started = performance.now();
  for (let i = 0; i < runs; i++) body();
  const microseconds = ((performance.now() - started) * 1000) / runs;
  console.log(`${label.padEnd(44)} ${microseconds.toFixed(2).padStart(9)} µs`);
  return microseconds;
}

function marcbachmann() {
  const env = new Environment()
    .registerVariable({
      name: 'dependency',
      schema: { ecosystem: 'string', name: 'string', direct: 'bool', scope: 'string' },
    })
    .registerVariable({
      name: 'vulnerabilities',
      schema: { count: 'int', maxCvss: 'double', fixAvailable: 'bool', ids: 'list<string>' },
    })
    .registerVariable({
      name: 'drift',
      schema: { majorsBehind: 'int', deprecated: 'bool', yanked: 'bool' },
    });
  const compile = (text: string) => {
    const checked = env.check(text);
    if (!checked.valid) throw checked.error;
    return env.parse(text);
  };
  const compiled = EXPRESSIONS.map(compile);
  time('@marcbachmann/cel-js compile (parse+check)', COMPILES, () => {
    for (const text of EXPRESSIONS) compile(text);
  });
  const perEval = time('@marcbachmann/cel-js evaluate (5 expressions)', EVALS / 5, () => {
    for (const program of compiled) program(facts);
  });
  const unknown = env.check('dependency.nmae == "x"');
  console.log(
    '  unknown field:',
    unknown.valid ? 'accepted' : unknown.error?.message.split('\n')[0],
  );
  return perEval;
}

function bufbuild() {
  // Nested records need protobuf message descriptors for field checking; without them the
  // facts are maps, and a misspelt field is found only at evaluation time.
  const env = celEnv({
    variables: {
      dependency: mapType(CelScalar.STRING, CelScalar.DYN),
      vulnerabilities: mapType(CelScalar.STRING, CelScalar.DYN),
      drift: mapType(CelScalar.STRING, CelScalar.DYN),
    },
  });
  const compile = (text: string) => {
    // 0.6.1 exports no type checker (check.js is internal): parse and plan only.
    return plan(env, parse(text));
  };
  const compiled = EXPRESSIONS.map(compile);
  const input = {
    dependency: new Map(Object.entries(facts.dependency)),
    vulnerabilities: new Map(Object.entries(facts.vulnerabilities)),
    drift: new Map(Object.entries(facts.drift)),
  };
  time('@bufbuild/cel compile (parse+plan)', COMPILES, () => {
    for (const text of EXPRESSIONS) compile(text);
  });
  const perEval = time('@bufbuild/cel evaluate (5 expressions)', EVALS / 5, () => {
    for (const program of compiled) {
      const result = program(input);
      if (isCelError(result)) throw new Error(String(result.message));
    }
  });
  try {
    const result = compile('dependency.nmae == "x"')(input);
    console.log(
      '  unknown field:',
      isCelError(result) ? `compiles; at evaluation: ${result.message}` : 'accepted',
    );
  } catch (error) {
    console.log('  unknown field:', (error as Error).message.split('\n')[0]);
  }
  return perEval;
}

const fast = marcbachmann();
const buf = bufbuild();
console.log(`evaluation ratio bufbuild / marcbachmann: ${(buf / fast).toFixed(2)}`);

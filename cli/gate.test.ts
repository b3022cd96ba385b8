import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_SUBSCRIPTIONS, jobDefinitions } from '../src/background-jobs';
import { MATCH_DEPENDENCIES } from '../src/domains/exposures/jobs';
import { EVALUATE_POLICY, EVALUATE_REPOSITORY } from '../src/domains/policies/jobs';
import { RUN_SCAN } from '../src/domains/scans/service';
import { takeOutbox } from '../src/jobs/outbox';
import type { JobDefinition, JobEnvelope } from '../src/jobs/queue';
import { eventually } from '../test/support/eventually';
import { createGitRepository, type GitFixture } from '../test/support/git-fixtures';
import { sarifSchemaAsDraft07, sarifValidator } from '../test/support/sarif-schema';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  type TestApp,
  type TestTenant,
} from '../test/support/scenarios';
import { run } from './commands/gate';
import { blockingReason, runOnline } from './gate-online';

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
/** Runs the command, capturing its report and what it writes to stderr. */
async function gate(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const errors: string[] = [];
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...args) => void errors.push(args.join(' ')));
  try {
    const code = await run(argv, { debug: false }, { env, write: (text) => void out.push(text) });
    return { code, stdout: out.join(''), stderr: errors.join('\n') };
  } finally {
    error.mockRestore();
  }
}

describe('driftwatch gate, unknown values', () => {
  it('blocks on block actions that are open or acknowledged, and on any unknown value', () => {
    expect(blockingReason({ action: 'block', status: 'open' })).toMatch(/block/);
    expect(blockingReason({ action: 'block', status: 'acknowledged' })).toMatch(/block/);
    expect(blockingReason({ action: 'block', status: 'excepted' })).toBeNull();
    expect(blockingReason({ action: 'block', status: 'excepted', blocking: false })).toBeNull();
    // The service's answer (policies/violations/blocking.ts) wins when it is the stricter one.
    expect(blockingReason({ action: 'block', status: 'dismissed', blocking: true })).toMatch(
      /block/,
    );
    expect(blockingReason({ action: 'warn', status: 'open' })).toBeNull();
    expect(blockingReason({ action: 'quarantine', status: 'open' })).toMatch(/fail safe/);
    expect(blockingReason({ action: 'warn', status: 'snoozed' })).toMatch(/fail safe/);
  });
});

describe('driftwatch gate offline', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftwatch-gate-'));
    const lock = {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { hole: '1.0.0', fine: '1.0.0' } },
        'node_modules/hole': { version: '1.0.0' },
        'node_modules/fine': { version: '1.0.0' },
      },
    };
    await writeFile(join(dir, 'package-lock.json'), JSON.stringify(lock));
    await writeFile(
      join(dir, 'osv.json'),
      JSON.stringify(
        osvRecord({
          id: 'GHSA-gate-0001-aaaa',
          severity: CRITICAL,
          affected: [npmRange('hole', '0', '2.0.0')],
        }),
      ),
    );
    const policies = (action: string) => ({
      policies: [
        {
          name: 'Critical with a fix',
          condition: 'vulnerabilities.items.exists(v, v.severity == "critical" && v.fixAvailable)',
          severity: 'critical',
          action,
        },
      ],
    });
    await writeFile(join(dir, 'block.json'), JSON.stringify(policies('block')));
    await writeFile(join(dir, 'warn.json'), JSON.stringify(policies('warn')));
    await writeFile(join(dir, 'novel.json'), JSON.stringify(policies('quarantine')));
    await writeFile(
      join(dir, 'bad.json'),
      JSON.stringify({ policies: [{ name: 'x', condition: 'nme == 1' }] }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('exits 1 with the blocking violation, 0 when the policy only warns, 2 on errors', async () => {
    const osv = ['--osv', join(dir, 'osv.json')];
    const blocked = await gate([dir, '--policy', join(dir, 'block.json'), ...osv]);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toMatch(
      /BLOCKED: 1 .*\n.*Critical with a fix: npm hole@1.0.0 in package-lock.json/,
    );
    const json = await gate([dir, '--policy', join(dir, 'block.json'), ...osv, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      blocked: true,
      mode: 'offline',
      findings: [{ packageName: 'hole', action: 'block' }],
    });
    expect((await gate([dir, '--policy', join(dir, 'warn.json'), ...osv])).code).toBe(0);
    expect((await gate([dir, '--policy', join(dir, 'novel.json'), ...osv])).code).toBe(1);
    // Without advisories a policy on vulnerability facts cannot be judged: an error, not a pass.
    const blind = await gate([dir, '--policy', join(dir, 'block.json')]);
    expect(blind.code).toBe(2);
    expect(blind.stdout).toBe('');
    expect(blind.stderr).toMatch(
      /policy "Critical with a fix" reads vulnerability facts and no --osv was given/,
    );
    const bad = await gate([dir, '--policy', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 1, column/);
    expect(
      (await gate([join(dir, 'missing'), '--policy', join(dir, 'block.json'), ...osv])).code,
    ).toBe(2);
    expect((await gate(['--json', '--sarif', dir])).code).toBe(2);
  });

  it('writes SARIF 2.1.0 that the official schema accepts', async () => {
    const validate = sarifValidator();
    const out = await gate([
      dir,
      '--policy',
      join(dir, 'block.json'),
      '--osv',
      join(dir, 'osv.json'),
      '--sarif',
    ]);
    expect(out.code).toBe(1);
    const log = JSON.parse(out.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results[0]).toMatchObject({
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'package-lock.json' } } }],
    });
    // The schema is really applied: each of these faults is refused.
    expect(validate({ version: '2.1.0', runs: [{ tool: {} }] })).toBe(false);
    const result = ['runs', 0, 'results', 0];
    const faults: [(string | number)[], unknown][] = [
      [['version'], '2.0.0'],
      [[...result, 'level'], 'blocker'],
      [[...result, 'ruleIndex'], -2],
      [[...result, 'message'], undefined],
      [[...result, 'locations', 0, 'physicalLocation', 'region'], { startLine: 0 }],
      [['runs', 0, 'tool', 'driver', 'rules', 0, 'shortDescription'], 'text'],
      [['runs', 0, 'invocations'], [{ executionSuccessful: true, startTimeUtc: 'today' }]],
    ];
    for (const [path, value] of faults) {
      const broken = JSON.parse(out.stdout) as Record<string | number, unknown>;
      const parent = path
        .slice(0, -1)
        .reduce((node, key) => node[key] as Record<string | number, unknown>, broken);
      const last = path.at(-1) as string | number;
      if (value === undefined) delete parent[last];
      else parent[last] = value;
      expect(validate(broken), `${path.join('.')} = ${JSON.stringify(value)}`).toBe(false);
    }
  });

  it('reads the draft-04 schema as draft-07 only when nothing in it changes meaning', () => {
    const draft04 = 'http://json-schema.org/draft-04/schema#';
    const schema = sarifSchemaAsDraft07({ $schema: draft04, id: 'x', type: 'object' });
    expect(schema).toEqual({ type: 'object' });
    expect(() =>
      sarifSchemaAsDraft07({
        $schema: draft04,
        id: 'x',
        properties: { n: { minimum: 0, exclusiveMinimum: true } },
      }),
    ).toThrow(/exclusiveMinimum at #\/properties\/n/);
    expect(() =>
      sarifSchemaAsDraft07({ $schema: draft04, id: 'x', definitions: { a: { id: '#a' } } }),
    ).toThrow(/id at #\/definitions\/a/);
    expect(() =>
      sarifSchemaAsDraft07({ $schema: 'http://json-schema.org/draft-07/schema#' }),
    ).toThrow(/draft-04/);
  });
});

describe('driftwatch gate online, polling for the evaluation', () => {
  const scanId = '00000000-0000-4000-8000-00000000000a';
  const repositoryId = '00000000-0000-4000-8000-00000000000b';
  let server: Server;
  let base: string;
  /** The log answers still to give, in order; then the last one again. */
  let logAnswers: { lines: object[]; retryAfter?: string }[] = [];
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '';
      paths.push(path);
      const send = (body: object, headers: Record<string, string> = {}) => {
        response.writeHead(200, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(body));
      };
      if (path.startsWith('/api/v1/scans?'))
        return send({ items: [{ scanId, state: 'completed', finishedAtUtc: null }] });
      if (path.startsWith(`/api/v1/scans/${scanId}/logs`)) {
        const answer = (logAnswers.length > 1 ? logAnswers.shift() : logAnswers[0]) ?? {
          lines: [],
        };
        return send(
          { items: answer.lines },
          answer.retryAfter ? { 'retry-after': answer.retryAfter } : {},
        );
      }
      if (path.startsWith('/api/v1/policy-violations')) return send({ items: [] });
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const evaluated = (level: string) => ({
    level,
    step: 'policies',
    message: 'policies evaluated: no enabled policy applies',
  });
  const options = (sleeps: number[]) => ({
    base,
    token: 'dw_test',
    repositoryId,
    rescan: false,
    timeoutMs: 60_000,
    random: () => 0,
    sleep: async (ms: number) => void sleeps.push(ms),
  });

  it('waits a Retry-After in full between polls, else backs off, and reads violations only after', async () => {
    paths.length = 0;
    logAnswers = [
      { lines: [{ level: 'info', step: 'store', message: 'scan completed' }], retryAfter: '3' },
      { lines: [] },
      { lines: [evaluated('info')] },
    ];
    const sleeps: number[] = [];
    const result = await runOnline(options(sleeps));
    expect(sleeps).toEqual([3000, 250]);
    expect(result.findings).toEqual([]);
    // A reused scan's line may be older than the violations: named, not quoted.
    expect(result.notes).not.toContain('policies evaluated: no enabled policy applies');
    expect(result.notes).toContain(
      `evaluation used: scan ${scanId}'s (time not reported); this service does not report later evaluations (policy changes) pending`,
    );
    const logReads = paths.filter((p) => p.includes('/logs'));
    expect(logReads).toHaveLength(3);
    expect(paths.findIndex((p) => p.startsWith('/api/v1/policy-violations'))).toBe(
      paths.length - 1,
    );
  });

  it('an evaluation line of a level it does not know blocks (fail safe)', async () => {
    logAnswers = [{ lines: [evaluated('fatal')] }];
    const result = await runOnline(options([]));
    expect(result.findings).toEqual([
      expect.objectContaining({ policyName: 'policy evaluation', status: 'fatal' }),
    ]);
  });
});

/** Whether `promise` is still pending (it had every chance to settle before this returns). */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return !settled;
}

const LOCKFILE = JSON.stringify(
  {
    name: 'web',
    version: '1.0.0',
    lockfileVersion: 3,
    packages: {
      '': { name: 'web', version: '1.0.0', dependencies: { hole: '1.0.0', fine: '1.0.0' } },
      'node_modules/hole': { version: '1.0.0' },
      'node_modules/fine': { version: '1.0.0' },
    },
  },
  null,
  2,
);
/** The line of hole's entry in LOCKFILE: where the finding points. */
const HOLE_LINE = LOCKFILE.split('\n').indexOf('    "node_modules/hole": {') + 1;

describe('driftwatch gate online', () => {
  let t: TestApp;
  let a: TestTenant;
  let repo: GitFixture;
  let repositoryId: string;
  let base: string;
  let handlers: Map<string, JobDefinition>;
  /** Jobs the tests hold back (a slow evaluation), in the order they were queued. */
  let held: { name: string; envelope: JobEnvelope<unknown> }[] = [];

  /**
   * Runs what the outbox holds, like the worker, but only the jobs named: the others wait in
   * `held` (as if their worker were slow) until `release` names them. Returns what ran.
   */
  async function pump(
    names: string[],
    queued: { name: string; envelope: JobEnvelope<unknown> }[] = [],
  ): Promise<string[]> {
    const ran: string[] = [];
    for (let batch = queued; ; batch = await takeOutbox(t.database, EVENT_SUBSCRIPTIONS)) {
      for (const job of batch) {
        if (!names.includes(job.name)) {
          held.push(job);
          continue;
        }
        const definition = handlers.get(job.name);
        if (!definition) throw new Error(`no handler registered for job ${job.name}`);
        await definition.handle(job.envelope);
        ran.push(job.name);
      }
      if (batch !== queued && batch.length === 0) return ran;
    }
  }
  const release = (names: string[]) => pump(names, held.splice(0));
  /** Waits for the scan the gate requested and runs it (the evaluation after it is held). */
  async function runRequestedScan(): Promise<void> {
    await eventually(async () => (await pump([RUN_SCAN.name])).includes(RUN_SCAN.name), {
      what: 'the gate to request a scan',
    });
  }
  const logsOf = async (scanId: string) => {
    const res = await t.as(a.token, { method: 'GET', url: `/api/v1/scans/${scanId}/logs` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as { step: string; level: string; message: string }[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    handlers = new Map(jobDefinitions(t.jobDeps).map((d) => [d.name, d]));
    a = await t.createTenant('enterprise', 'A');
    repo = createGitRepository({ 'package-lock.json': LOCKFILE });
    repositoryId = await insertRepository(t, a.tenantId, 'web', {
      clone_url: repo.url,
      default_branch: 'main',
    });
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-gate-0002-aaaa',
        severity: CRITICAL,
        affected: [npmRange('hole', '0', '2.0.0')],
      }),
    ]);
    await createPolicy(t, a.token, {
      name: 'Critical',
      condition: 'vulnerabilities.maxSeverityLevel >= 4',
      severity: 'critical',
      action: 'block',
    });
    await t.runJobs({ only: [EVALUATE_POLICY.name] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 300_000);
  afterAll(async () => {
    held = [];
    repo.remove();
    await t.close();
  });

  it('waits for the evaluation of the scan it requested: a slow one still blocks, no early pass', async () => {
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    const result = gate(['--repository', repositoryId, '--rescan', '--json'], env);
    await runRequestedScan();
    const [scan] = (
      await t.as(a.token, { method: 'GET', url: `/api/v1/scans?repositoryId=${repositoryId}` })
    ).json().items as { scanId: string; state: string }[];
    expect(scan?.state).toBe('completed');
    // The scan is done and its evaluation is not: a gate that read the violations now would pass.
    const none = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/policy-violations?repositoryId=${repositoryId}`,
    });
    expect(none.json().items).toEqual([]);
    expect(held.map((job) => job.name)).toContain(MATCH_DEPENDENCIES.name);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await pending(result)).toBe(true);
    // The slow evaluation arrives: matching, then the evaluation it triggers.
    expect(await release([MATCH_DEPENDENCIES.name, EVALUATE_REPOSITORY.name])).toEqual([
      MATCH_DEPENDENCIES.name,
      EVALUATE_REPOSITORY.name,
    ]);
    const blocked = await result;
    expect(blocked.code, blocked.stderr).toBe(1);
    const report = JSON.parse(blocked.stdout);
    expect(report.scanId).toBe(scan?.scanId);
    expect(report.findings).toEqual([
      expect.objectContaining({ packageName: 'hole', policyName: 'Critical', status: 'open' }),
    ]);
    expect(report.notes, JSON.stringify(report.notes)).toContain(
      'policies evaluated: 1 policies over 3 dependencies; opened 1, reopened 0, excepted 0, resolved 0',
    );
  }, 120_000);

  it('never passes on a timeout: an evaluation that does not come is exit 2', async () => {
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    const requested = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    expect(requested.statusCode, requested.body).toBe(202);
    const scanId = requested.json().scanId as string;
    await runRequestedScan();
    // The scan completed and its evaluation is held back: the gate reuses it and waits for that.
    const timedOut = await gate(['--repository', repositoryId, '--timeout', '2'], env);
    expect(timedOut.code).toBe(2);
    expect(timedOut.stdout).toBe('');
    expect(timedOut.stderr).toContain(
      `timed out after 2 s (--timeout) waiting for the policy evaluation of scan ${scanId}`,
    );
    expect((await logsOf(scanId)).some((line) => line.step === 'policies')).toBe(false);
    // The evaluation comes late: the scan's log then says so (what the gate reads).
    await release([MATCH_DEPENDENCIES.name, EVALUATE_REPOSITORY.name]);
    expect((await logsOf(scanId)).filter((line) => line.step === 'policies')).toEqual([
      expect.objectContaining({ level: 'info', message: expect.stringMatching(/opened 0/) }),
    ]);
  }, 60_000);

  it('reuses the latest scan and fails on open block violations; passes once dismissed', async () => {
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    const blocked = await gate(['--repository', repositoryId, '--json'], env);
    expect(blocked.code, blocked.stderr).toBe(1);
    const result = JSON.parse(blocked.stdout);
    expect(result.findings).toEqual([
      expect.objectContaining({ packageName: 'hole', policyName: 'Critical', status: 'open' }),
    ]);
    expect(result.notes[0]).toMatch(/reusing the latest scan/);
    // The file and line of the declaration, as the offline gate gives them.
    expect(HOLE_LINE).toBeGreaterThan(1);
    expect(result.findings[0]).toMatchObject({ file: 'package-lock.json', line: HOLE_LINE });
    const sarif = await gate(['--repository', repositoryId, '--sarif'], env);
    expect(sarif.code).toBe(1);
    const validate = sarifValidator();
    const log = JSON.parse(sarif.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results[0].locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'package-lock.json' },
          region: { startLine: HOLE_LINE },
        },
      },
    ]);
    const violationId = result.findings[0].violationId as string;
    const dismissed = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/policy-violations/${violationId}`,
      payload: { status: 'dismissed', reason: 'not reachable' },
    });
    expect(dismissed.statusCode).toBe(200);
    const passed = await gate(['--repository', repositoryId], env);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toMatch(/PASS/);
    expect(
      (
        await gate(['--repository', repositoryId, '--token', 'dw_wrong'], {
          DRIFTWATCH_URL: base,
        })
      ).code,
    ).toBe(2);
    expect((await gate(['--repository', repositoryId], { DRIFTWATCH_URL: base })).code).toBe(2);
    expect((await gate(['--repository', repositoryId, '--settle', '0'], env)).code).toBe(2);
  }, 60_000);

  it('a scan with no policy to evaluate is marked evaluated too: the gate passes, no hang', async () => {
    const b = await t.createTenant('enterprise', 'B');
    const other = await insertRepository(t, b.tenantId, 'web', {
      clone_url: repo.url,
      default_branch: 'main',
    });
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: b.token };
    const result = gate(['--repository', other, '--json', '--timeout', '60'], env);
    await runRequestedScan();
    await release([MATCH_DEPENDENCIES.name, EVALUATE_REPOSITORY.name]);
    const passed = await result;
    expect(passed.code, passed.stderr).toBe(0);
    expect(JSON.parse(passed.stdout).notes).toEqual([
      'scan requested',
      'policies evaluated: no enabled policy applies',
      expect.stringMatching(
        /^evaluation used: scan .* with every policy at its current version \(0 policies; latest evaluation none\)$/,
      ),
    ]);
  }, 60_000);

  it('waits for a policy created a moment ago: no pass before its evaluation, no stale line quoted', async () => {
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    await createPolicy(t, a.token, {
      name: 'No fine',
      condition: 'dependency.name == "fine"',
      severity: 'high',
      action: 'block',
    });
    const result = gate(['--repository', repositoryId, '--json', '--timeout', '60'], env);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // The scan's evaluation is long done; the new policy's is not: a pass now would be wrong.
    expect(await pending(result)).toBe(true);
    const progressUrl = `/api/v1/repositories/${repositoryId}/policy-evaluation`;
    const progress = await t.as(a.token, { method: 'GET', url: progressUrl });
    expect(progress.statusCode, progress.body).toBe(200);
    expect(progress.json()).toMatchObject({
      state: 'pending',
      pendingPolicies: [{ name: 'No fine', version: 1, evaluatedVersion: null }],
    });
    expect(await pump([EVALUATE_POLICY.name])).toEqual([EVALUATE_POLICY.name]);
    const blocked = await result;
    expect(blocked.code, blocked.stderr).toBe(1);
    const report = JSON.parse(blocked.stdout);
    expect(report.findings).toEqual([
      expect.objectContaining({ packageName: 'fine', policyName: 'No fine', status: 'open' }),
    ]);
    expect(report.evaluation).toMatchObject({
      scanId: report.scanId,
      waitedFor: ['policy "No fine" version 1 (not evaluated here yet)'],
    });
    expect(report.notes).toContain(
      'waited for: policy "No fine" version 1 (not evaluated here yet)',
    );
    // The reused scan's own line counts an older state of the violations: not quoted.
    expect(report.notes.filter((n: string) => n.startsWith('policies evaluated'))).toEqual([]);
    expect((await t.as(a.token, { method: 'GET', url: progressUrl })).json().state).toBe('current');
    // Another tenant's token gets 404 for this repository's progress.
    const b = await t.createTenant('enterprise', 'Stranger');
    expect((await t.as(b.token, { method: 'GET', url: progressUrl })).statusCode).toBe(404);
  }, 60_000);
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MATCH_DEPENDENCIES_JOB, REMATCH_JOB } from '../src/domains/exposures/jobs';
import { EVALUATE_POLICY_JOB, EVALUATE_REPOSITORY_JOB } from '../src/domains/policies/jobs';
import { npmRange, osvRecord } from '../src/intel/advisory-store/test-records';
import { importJsonl, insertRepository, scanWith } from '../test/support/exposures';
import { createTestApp, type TestApp, type TestTenant } from '../test/support/test-app';
import { run } from './commands/gate';
import { blockingReason } from './gate-online';

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
const SCHEMA = join(
  import.meta.dirname,
  '..',
  'test',
  'fixtures',
  'schemas',
  'sarif-schema-2.1.0.json',
);

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

async function sarifValidator() {
  const schema = JSON.parse(await readFile(SCHEMA, 'utf8')) as Record<string, unknown>;
  const addFormats =
    (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
    addFormatsModule;
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  return ajv.compile(schema);
}

describe('driftwatch gate, unknown values', () => {
  it('blocks on block actions that are open or acknowledged, and on any unknown value', () => {
    expect(blockingReason({ action: 'block', status: 'open' })).toMatch(/block/);
    expect(blockingReason({ action: 'block', status: 'acknowledged' })).toMatch(/block/);
    expect(blockingReason({ action: 'block', status: 'excepted' })).toBeNull();
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
    const bad = await gate([dir, '--policy', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 1, column/);
    expect((await gate([join(dir, 'missing'), '--policy', join(dir, 'block.json')])).code).toBe(2);
    expect((await gate(['--json', '--sarif', dir])).code).toBe(2);
  });

  it('writes SARIF 2.1.0 that the official OASIS schema accepts', async (context) => {
    const present = await readFile(SCHEMA).then(
      () => true,
      () => false,
    );
    if (!present) {
      console.warn(
        `skipped: ${SCHEMA} is absent (test/fixtures/schemas/README.md says where to get it)`,
      );
      context.skip();
    }
    const validate = await sarifValidator();
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
    expect(validate({ version: '2.1.0', runs: [{ tool: {} }] })).toBe(false);
  });
});

describe('driftwatch gate online', () => {
  let t: TestApp;
  let a: TestTenant;
  let repositoryId: string;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    repositoryId = await insertRepository(t, a.tenantId, 'web');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-gate-0002-aaaa',
        severity: CRITICAL,
        affected: [npmRange('hole', '0', '2.0.0')],
      }),
    ]);
    await scanWith(
      t,
      a.tenantId,
      repositoryId,
      [
        { name: 'hole', version: '1.0.0' },
        { name: 'fine', version: '1.0.0' },
      ],
      [MATCH_DEPENDENCIES_JOB, REMATCH_JOB],
    );
    await sql`INSERT INTO scans (tenant_id, id, repository_id, state, trigger, started_at, finished_at)
      VALUES (${a.tenantId}, gen_random_uuid(), ${repositoryId}, 'completed', 'manual', now(), now() - interval '1 minute')`.execute(
      t.database.system,
    );
    const created = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/policies',
      payload: {
        name: 'Critical',
        condition: 'vulnerabilities.maxSeverityLevel >= 4',
        severity: 'critical',
        action: 'block',
      },
    });
    expect(created.statusCode).toBe(201);
    await t.runJobs({ only: [EVALUATE_POLICY_JOB, EVALUATE_REPOSITORY_JOB] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 300_000);
  afterAll(() => t.close());

  it('reuses the latest scan and fails on open block violations; passes once dismissed', async () => {
    const env = { DRIFTWATCH_URL: base, DRIFTWATCH_TOKEN: a.token };
    const blocked = await gate(['--repository', repositoryId, '--settle', '0', '--json'], env);
    expect(blocked.code, blocked.stderr).toBe(1);
    const result = JSON.parse(blocked.stdout);
    expect(result.findings).toEqual([
      expect.objectContaining({ packageName: 'hole', policyName: 'Critical', status: 'open' }),
    ]);
    expect(result.notes[0]).toMatch(/reusing the latest scan/);
    const violationId = result.findings[0].violationId as string;
    const dismissed = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/policy-violations/${violationId}`,
      payload: { status: 'dismissed', reason: 'not reachable' },
    });
    expect(dismissed.statusCode).toBe(200);
    const passed = await gate(['--repository', repositoryId, '--settle', '0'], env);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toMatch(/PASS/);
    expect(
      (
        await gate(['--repository', repositoryId, '--settle', '0', '--token', 'dw_wrong'], {
          DRIFTWATCH_URL: base,
        })
      ).code,
    ).toBe(2);
    expect((await gate(['--repository', repositoryId], { DRIFTWATCH_URL: base })).code).toBe(2);
  });
});

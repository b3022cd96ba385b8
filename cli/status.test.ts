import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { run } from './commands/status';

const OPERATOR_TOKEN = 'operator-token-for-status-cli';

describe('driftwatch status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
    // Stubbed, not assigned: test files share the process, and unstubbing restores what was there.
    vi.stubEnv('DRIFTWATCH_URL', await t.app.listen({ host: '127.0.0.1', port: 0 }));
    vi.stubEnv('DRIFTWATCH_OPERATOR_TOKEN', OPERATOR_TOKEN);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await t?.close();
  });

  const cli = async (...argv: string[]) => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => {
      lines.push(line);
    });
    try {
      return { code: await run(argv, { debug: false }), out: lines.join('\n') };
    } finally {
      log.mockRestore();
    }
  };

  it('creates and updates an incident, adds a changelog entry, overrides a component', async () => {
    const created = await cli(
      'incident',
      'create',
      '--title',
      'API errors',
      '--impact',
      'major',
      '--body',
      'Investigating.',
      '--component',
      'api',
    );
    expect(created.code).toBe(0);
    const id = /incident ([0-9a-f-]{36})/.exec(created.out)?.[1] ?? '';
    expect(
      (await cli('incident', 'update', id, '--state', 'resolved', '--body', 'Fixed.')).code,
    ).toBe(0);
    expect(
      (await cli('changelog', 'add', '--kind', 'release', '--title', '1.5', '--version', '1.5.0'))
        .code,
    ).toBe(0);
    expect(
      (await cli('override', 'database', '--state', 'maintenance', '--reason', 'Upgrade')).code,
    ).toBe(0);

    const incidents = (await t.app.inject({ method: 'GET', url: '/status/incidents' })).json()
      .items;
    expect(incidents[0]).toMatchObject({ incidentId: id, status: 'resolved', components: ['api'] });
    const changelog = (await t.app.inject({ method: 'GET', url: '/status/changelog' })).json()
      .items;
    expect(changelog[0]).toMatchObject({ kind: 'release', version: '1.5.0' });
    const shown = await cli('show');
    expect(shown.out).toMatch(/Database\s+maintenance/);
    expect((await cli('override', 'database', '--clear')).code).toBe(0);
    expect((await cli('show')).out).toMatch(/Database\s+operational/);
  });

  it('fails with the problem detail on refused input and a usage error on missing flags', async () => {
    await expect(
      cli('incident', 'create', '--title', 'x', '--impact', 'huge', '--body', 'y'),
    ).rejects.toThrow(/answered 400/);
    await expect(cli('incident', 'create', '--title', 'x')).rejects.toThrow(/--impact is required/);
    vi.stubEnv('DRIFTWATCH_OPERATOR_TOKEN', 'wrong-operator-token-123');
    await expect(cli('changelog', 'add', '--kind', 'release', '--title', 'x')).rejects.toThrow(
      /answered 401/,
    );
    vi.stubEnv('DRIFTWATCH_OPERATOR_TOKEN', OPERATOR_TOKEN);
  });
});

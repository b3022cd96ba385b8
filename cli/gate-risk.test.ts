import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOffline } from './gate-offline';

/** Risk facts offline (docs/policies.md#ci-gate): no registry, so only names and declarations. */
describe('driftwatch gate offline: risk facts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftwatch-gate-risk-'));
    const lock = {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { expresss: '4.0.0', fine: '1.0.0' } },
        'node_modules/expresss': { version: '4.0.0' },
        'node_modules/fine': { version: '1.0.0' },
      },
    };
    await writeFile(join(dir, 'package-lock.json'), JSON.stringify(lock));
    const policy = (condition: string) => ({
      policies: [{ name: 'Risk', condition, severity: 'high', action: 'block' }],
    });
    await writeFile(
      join(dir, 'typosquat.json'),
      JSON.stringify(policy('"typosquat" in risk.kinds && !risk.known')),
    );
    // Registry indicators cannot be judged offline: this one never fires.
    await writeFile(
      join(dir, 'registry.json'),
      JSON.stringify(policy('risk.known || "single-maintainer" in risk.kinds')),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('blocks a typosquat by its name and says registry facts are unknown', async () => {
    const typosquat = await runOffline(dir, { policyFile: join(dir, 'typosquat.json'), osv: [] });
    expect(typosquat.findings.map((f) => f.packageName)).toEqual(['expresss']);
    const registry = await runOffline(dir, { policyFile: join(dir, 'registry.json'), osv: [] });
    expect(registry.evaluated).toBeGreaterThanOrEqual(2);
    expect(registry.findings).toEqual([]);
  });
});

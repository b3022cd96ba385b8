import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenWithRole } from '../../../test/support/cra';
import { insertRepository } from '../../../test/support/exposures';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { CONTROLS } from './controls';

/**
 * An evidence archive verified the way docs/compliance.md#verifying-an-archive tells an auditor
 * to: the published key fetched from the service, `openssl pkeyutl -verify` on the manifest,
 * `sha256sum -c` on every file it lists. The tools run as processes, not as library calls.
 */
let t: TestApp;
let tenant: TestTenant;
let admin: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant('enterprise', 'Audited');
  admin = await tokenWithRole(t, tenant, 'admin');
  await insertRepository(t, tenant.tenantId, 'alpha');
  // Imported before the archived period, so it counts as active in it.
  await sql`UPDATE repositories SET created_at = '2025-12-01T00:00:00Z'`.execute(t.database.system);
  dir = mkdtempSync(join(tmpdir(), 'evidence-archive-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

async function generate(periodStart: string, periodEnd: string): Promise<Buffer> {
  const res = await t.as(admin, {
    method: 'POST',
    url: '/api/v1/compliance/evidence-archives',
    payload: { periodStart, periodEnd },
  });
  expect(res.statusCode, res.body).toBe(202);
  await t.runJobs();
  const zip = await t.as(admin, { method: 'GET', url: `${res.headers.location}/download` });
  expect(zip.statusCode, zip.body).toBe(200);
  const status = await t.as(admin, { method: 'GET', url: res.headers.location as string });
  expect(status.json().archiveBytes).toBe(zip.rawPayload.length);
  return zip.rawPayload;
}

function extract(zip: Buffer, into: string): Record<string, Uint8Array> {
  const files = unzipSync(zip);
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(into, path)), { recursive: true });
    writeFileSync(join(into, path), bytes);
  }
  return files;
}

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('evidence archive', () => {
  it('verifies with openssl against the published key, and every file against the manifest', async () => {
    const zip = await generate('2026-01-01', '2026-03-31');
    const into = join(dir, 'q1');
    const files = extract(zip, into);
    const ids = CONTROLS.map((c) => c.controlId);
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'controls.json',
        'manifest.json',
        'manifest.sig',
        'signing-key.pem',
        ...ids.flatMap((id) => [`controls/${id}.json`, `controls/${id}.csv`]),
      ].sort(),
    );
    const published = await t.app.inject({ method: 'GET', url: '/api/v1/compliance/signing-key' });
    writeFileSync(join(into, 'pub.pem'), published.body);
    const verified = openssl(
      [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-inkey',
        'pub.pem',
        '-rawin',
        '-in',
        'manifest.json',
        '-sigfile',
        'manifest.sig',
      ],
      into,
    );
    expect(verified).toContain('Signature Verified Successfully');

    const manifest = JSON.parse(readFileSync(join(into, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      tenantId: tenant.tenantId,
      periodStartUtc: '2026-01-01T00:00:00.000Z',
      periodEndUtc: '2026-04-01T00:00:00.000Z',
      signature: { algorithm: 'Ed25519', keyId: published.headers['x-signing-key-id'] },
    });
    const sums = manifest.files
      .map((f: { sha256: string; path: string }) => `${f.sha256}  ${f.path}`)
      .join('\n');
    const checked = execFileSync('sha256sum', ['-c', '-'], {
      cwd: into,
      input: `${sums}\n`,
      encoding: 'utf8',
    });
    expect(checked.trim().split('\n')).toHaveLength(Object.keys(files).length - 2);
    expect(checked).not.toMatch(/FAILED/);

    const cc71 = JSON.parse(readFileSync(join(into, 'controls/soc2-cc7.1.json'), 'utf8'));
    expect(cc71.gaps).toContain('no scan of repository acme/alpha in the period');
    const csv = readFileSync(join(into, 'controls/soc2-cc7.1.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'control_id,evidence_kind,evidence_status,row_type,record_type,record_id,api_path,text',
    );
    expect(csv).toContain(
      'soc2-cc7.1,scan_coverage,failing,gap,,,,no scan of repository acme/alpha in the period',
    );
  });

  it('fails verification when the manifest changes by one byte, or a file no longer matches it', async () => {
    const zip = await generate('2026-02-01', '2026-02-28');
    const into = join(dir, 'tampered');
    extract(zip, into);
    writeFileSync(
      join(into, 'pub.pem'),
      (await t.app.inject({ method: 'GET', url: '/api/v1/compliance/signing-key' })).body,
    );
    const manifest = readFileSync(join(into, 'manifest.json'));
    const flipped = Buffer.from(manifest);
    flipped[10] = (flipped[10] as number) ^ 1;
    writeFileSync(join(into, 'manifest.json'), flipped);
    expect(() =>
      openssl(
        [
          'pkeyutl',
          '-verify',
          '-pubin',
          '-inkey',
          'pub.pem',
          '-rawin',
          '-in',
          'manifest.json',
          '-sigfile',
          'manifest.sig',
        ],
        into,
      ),
    ).toThrow(/Signature Verification Failure|Command failed/);
    writeFileSync(join(into, 'manifest.json'), manifest);
    writeFileSync(join(into, 'controls/soc2-cc8.1.csv'), 'edited\r\n');
    const parsed = JSON.parse(manifest.toString('utf8'));
    const sums = parsed.files
      .map((f: { sha256: string; path: string }) => `${f.sha256}  ${f.path}`)
      .join('\n');
    expect(() =>
      execFileSync('sha256sum', ['-c', '--quiet', '-'], {
        cwd: into,
        input: `${sums}\n`,
        stdio: 'pipe',
      }),
    ).toThrow();
  });

  it('keeps the private key sealed at rest with the master key', async () => {
    const rows = await t.database.system
      .selectFrom('compliance_signing_keys')
      .selectAll()
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.private_key_sealed).toMatch(/^v1\./);
    expect(rows[0]?.private_key_sealed).not.toContain('PRIVATE KEY');
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_TAGS } from '../../src/http/openapi';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The OpenAPI document for client generators (docs/http-api.md): stable operationIds, one
 * declared tag per operation, servers and licence, the published table in the docs, and a clean
 * `redocly lint` with the repository's rule set.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  info: { license?: { name?: string; identifier?: string; url?: string } };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}
interface Listed {
  method: string;
  path: string;
  operationId: string | undefined;
  tags: string[];
  security: unknown[] | undefined;
}

function operationsOf(doc: Document): Listed[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        tags: op.tags ?? [],
        security: op.security,
      })),
  );
}

/** The "Published operations" table of docs/http-api.md. */
async function publishedOperations(): Promise<string[]> {
  const text = await readFile(join(ROOT, 'docs', 'http-api.md'), 'utf8');
  const section = text.slice(text.indexOf('## Published operations'));
  return [...section.matchAll(/^\| `(\w+)` \| ([A-Z]+) \| `([^`]+)` \| ([^|]+?) \|$/gm)].map(
    ([, id, method, path, tag]) => `${id} ${method} ${path} ${tag}`,
  );
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

/** `redocly lint` with the repository's redocly.yaml; offline (no telemetry, no notices). */
async function lint(doc: unknown, dir: string, name: string): Promise<LintReport> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(doc, null, 2));
  const run = promisify(execFile);
  const result = await run(
    process.execPath,
    [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    // Exit status 1 means problems were found: the JSON report is still on stdout.
    if (error.stdout?.trim().startsWith('{')) return { stdout: error.stdout, stderr: '' };
    throw error;
  });
  return JSON.parse(result.stdout) as LintReport;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    doc = t.app.swagger() as unknown as Document;
    dir = await mkdtemp(join(tmpdir(), 'driftwatch-openapi-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives every operation a unique camelCase operationId and exactly one declared tag', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(50);
    const declared = new Set((doc.tags ?? []).map((tag) => tag.name));
    expect([...declared]).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
    for (const op of operations) {
      const where = `${op.method} ${op.path}`;
      expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(op.tags, where).toHaveLength(1);
      expect(declared.has(op.tags[0] ?? ''), `${where} tag ${op.tags[0]}`).toBe(true);
    }
    const ids = operations.map((op) => op.operationId);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated).toEqual([]);
  });

  it('keeps the published operationIds: the docs table and the document agree', async () => {
    const published = await publishedOperations();
    expect(published.length).toBeGreaterThan(50);
    const served = operationsOf(doc).map(
      (op) => `${op.operationId} ${op.method} ${op.path} ${op.tags[0]}`,
    );
    // A published name that is gone was renamed (clients break); a new one must be listed.
    expect(
      published.filter((entry) => !served.includes(entry)),
      'published but not served',
    ).toEqual([]);
    expect(
      served.filter((entry) => !published.includes(entry)),
      'served but not in docs/http-api.md',
    ).toEqual([]);
  });

  it('declares servers, an honest licence, and public operations without a token', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: 'UNLICENSED (proprietary; all rights reserved)' });
    const byKey = new Map(operationsOf(doc).map((op) => [`${op.method} ${op.path}`, op]));
    for (const key of ['GET /api/v1/health', 'POST /api/v1/auth/demo']) {
      expect(byKey.get(key)?.security, key).toEqual([]);
    }
    expect(byKey.get('GET /api/v1/repositories')?.security).toBeUndefined();
  });

  it('declares every error response as application/problem+json, as the service sends it', () => {
    let errors = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          if (!/^[45]/.test(status)) continue;
          errors++;
          const where = `${method.toUpperCase()} ${path} ${status}`;
          expect(Object.keys(response.content ?? {}), where).toEqual(['application/problem+json']);
          const schema = JSON.stringify(response.content?.['application/problem+json']?.schema);
          expect(schema, where).toMatch(/"\$ref":"#\/components\/schemas\/[^"]+"/);
        }
      }
    }
    expect(errors).toBeGreaterThan(200);
  });

  it('still sends problems as application/problem+json through the per-media-type serializer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/repositories' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 401, title: expect.any(String) });
  });

  it('passes redocly lint (recommended rules, redocly.yaml) with no error and no warning', async () => {
    const report = await lint(doc, dir, 'openapi.json');
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('the lint does fail a document with a missing and a repeated operationId', async () => {
    const broken = structuredClone(doc);
    const health = broken.paths['/api/v1/health']?.get;
    const version = broken.paths['/api/v1/version']?.get;
    if (!health || !version) throw new Error('expected the health and version operations');
    delete health.operationId;
    version.operationId = 'listRepositories';
    const report = await lint(broken, dir, 'broken.json');
    const rules = report.problems.map((p) => `${p.severity} ${p.ruleId}`);
    expect(rules).toContain('error operation-operationId');
    expect(rules).toContain('error operation-operationId-unique');
  });
});

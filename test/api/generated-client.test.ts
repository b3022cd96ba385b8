import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestTenant } from '../support/test-app';

/**
 * A client generated from the served OpenAPI document works (docs/http-api.md): types from
 * openapi-typescript, calls through openapi-fetch. The calling program below is type-checked
 * against the generated types (including calls that must not compile), then run against the
 * service listening on 127.0.0.1.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The client program: compiled by tsc against the generated `paths`, then imported and run. */
const CALLS = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function exercise(baseUrl: string, ownerToken: string) {
  const owner = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${ownerToken}\` } });
  const created = await owner.POST('/api/v1/api-tokens', {
    body: { name: 'generated client', roleScopeJson: '{"roles":["viewer"]}', expiresAtUtc: null },
  });
  if (!created.data) throw new Error(\`create token: \${created.response.status}\`);
  const rawSecret: string = created.data.rawSecret;

  const viewer = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${rawSecret}\` } });
  const listed = await viewer.GET('/api/v1/repositories', { params: { query: { take: 5 } } });
  if (!listed.data) throw new Error(\`list repositories: \${listed.response.status}\`);
  const names: string[] = listed.data.items.map((repository) => repository.fullName);

  const missing = await viewer.GET('/api/v1/repositories/{repositoryId}', {
    params: { path: { repositoryId: '00000000-0000-7000-8000-000000000000' } },
  });
  const problemStatus: number | null | undefined = missing.error?.status;

  const health = await createClient<paths>({ baseUrl }).GET('/api/v1/health');
  return {
    created: { status: created.response.status, prefix: created.data.prefix, rawSecret },
    listed: { status: listed.response.status, names, take: listed.data.take },
    missing: {
      status: missing.response.status,
      contentType: missing.response.headers.get('content-type'),
      problemStatus,
      title: missing.error?.title,
    },
    health: health.data?.status,
  };
}

/** Never called: each line must fail to compile, or the type check reports an unused directive. */
export function mustNotCompile(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error the path parameter is repositoryId
  client.GET('/api/v1/repositories/{repositoryId}', { params: { path: { id: 'x' } } });
  // @ts-expect-error a token needs its name
  client.POST('/api/v1/api-tokens', { body: { roleScopeJson: null, expiresAtUtc: null } });
  // @ts-expect-error no such operation
  client.GET('/api/v1/no-such-route');
}
`;

const WRONG = [
  "import createClient from 'openapi-fetch';",
  "import type { paths } from './schema';",
  "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });",
  "export const call = client.GET('/api/v1/scans/{scanId}', { params: { path: { id: 'x' } } });",
].join('\n');

/** Type-checks the programs with the project's compiler settings; returns the diagnostics. */
function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return text;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}:${line + 1}: ${text}`;
  });
}

describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let baseUrl: string;
  // Inside the repository so that the program resolves openapi-fetch; ignored by git.
  const dir = join(ROOT, 'test', 'support', 'generated', randomBytes(6).toString('hex'));

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant('team');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    await mkdir(dir, { recursive: true });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('generates types that compile, and calls the service through openapi-fetch', async () => {
    const document = t.app.swagger() as unknown as OpenAPI3;
    const schema = astToString(await openapiTS(document));
    expect(schema).toContain('listRepositories: {');
    expect(schema).toContain('"/api/v1/repositories/{repositoryId}": {');
    await writeFile(join(dir, 'schema.ts'), schema);
    const program = join(dir, 'calls.ts');
    await writeFile(program, CALLS);
    // A misuse beside it, in the same compilation: the check can fail.
    await writeFile(join(dir, 'wrong.ts'), WRONG);

    const errors = typeCheck([program, join(dir, 'wrong.ts')]);
    expect(errors.filter((error) => !error.includes('wrong.ts:'))).toEqual([]);
    expect(errors.filter((error) => error.includes('wrong.ts:4:'))).toHaveLength(1);

    const { exercise } = (await import(pathToFileURL(program).href)) as {
      exercise: (
        baseUrl: string,
        token: string,
      ) => Promise<Record<string, Record<string, unknown>>>;
    };
    const result = await exercise(baseUrl, tenant.token);
    expect(result.created).toMatchObject({ status: 201, rawSecret: expect.stringMatching(/^dw_/) });
    expect(result.listed).toEqual({ status: 200, names: [], take: 5 });
    expect(result.missing).toEqual({
      status: 404,
      contentType: expect.stringMatching(/^application\/problem\+json/),
      problemStatus: 404,
      title: 'Not Found',
    });
    expect(result.health).toBe('ok');
  });
});

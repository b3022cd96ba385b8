import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Fastify from 'fastify';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** The first release of each Node line the engines field promises (README: Quick start). */
const PROMISED_MINIMUMS = ['20.19.0', '22.13.0', '24.0.0'];

describe('the Node versions package.json promises', () => {
  it('are the lines the engines field admits', () => {
    for (const version of PROMISED_MINIMUMS) {
      expect(semver.satisfies(version, packageJson.engines.node), version).toBe(true);
    }
    // Node 20 before 20.19 runs neither require(esm) by default nor several dependencies.
    expect(semver.satisfies('20.18.0', packageJson.engines.node)).toBe(false);
  });

  it('satisfy every locked package that declares a Node engine (npm warns otherwise)', () => {
    const unsatisfied: string[] = [];
    for (const [path, locked] of Object.entries(lock.packages)) {
      const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
      if (!path || !range) continue;
      for (const version of PROMISED_MINIMUMS) {
        if (!semver.satisfies(version, range)) unsatisfied.push(`${path} (${range}) on ${version}`);
      }
    }
    expect(unsatisfied).toEqual([]);
  });
});

describe('the overridden dependencies (package.json "overrides")', () => {
  it('light-my-request serialises injected cookies with the cookie version pinned for it', async () => {
    const app = Fastify();
    app.get('/', async (request) => ({ cookie: request.headers.cookie ?? null }));
    const response = await app.inject({ url: '/', cookies: { session: 'a b' } });
    expect(response.json()).toEqual({ cookie: 'session=a%20b' });
    await app.close();
  });

  it('@fastify/static finds `create` in the content-disposition version pinned for it', () => {
    const fromSwaggerUi = createRequire(require.resolve('@fastify/swagger-ui'));
    const fromStatic = createRequire(fromSwaggerUi.resolve('@fastify/static'));
    const { create } = fromStatic('content-disposition') as { create: (name: string) => string };
    expect(create('report 1.json')).toBe('attachment; filename="report 1.json"');
  });
});

import type { SourcesConfig } from '../../../src/config';
import { loadConfig } from '../../../src/config';
import { clearScmATokenCache } from '../../../src/sources/scm-a';
import { FakeScmA } from './scm-a';
import { FakeScmB } from './scm-b';
import { FakeScmC } from './scm-c';
import { FakeScmD } from './scm-d';

export * from './deliveries';
export type { FakeMode, RecordedRequest } from './server';
export { FakeScmA, FakeScmB, FakeScmC, FakeScmD };

/**
 * The four fake providers, each a real HTTP server on 127.0.0.1. Seed them with
 * `a.addInstallation`, `b.addUser`/`addProject`, `c.addOrganization`, `d.addWorkspace` /
 * `dcProjects` / `dcRepositories`; flip `mode` to 'unauthorized', 'error', 'down' or
 * 'rate-limited-once'; read `requests` to see what the client sent.
 */
export interface FakeScm {
  a: FakeScmA;
  b: FakeScmB;
  c: FakeScmC;
  d: FakeScmD;
  /** `config.sources` pointing every provider at the fakes (scm-a app key included). */
  sourcesConfig: (overrides?: Partial<SourcesConfig>) => SourcesConfig;
  /** Every fake back to 'ok' with an empty request log (seeded data stays). */
  reset: () => void;
  close: () => Promise<void>;
}

export async function startFakeScm(): Promise<FakeScm> {
  const [a, b, c, d] = await Promise.all([
    new FakeScmA().start(),
    new FakeScmB().start(),
    new FakeScmC().start(),
    new FakeScmD().start(),
  ]);
  return {
    a,
    b,
    c,
    d,
    sourcesConfig: (overrides = {}) => ({
      ...loadConfig({}).sources,
      scmAApiUrl: a.url,
      scmAAppId: a.appId,
      scmAAppPrivateKey: a.privateKeyPem,
      scmBApiUrl: b.apiBase,
      scmCApiUrl: c.url,
      scmDApiUrl: d.cloudApiBase,
      scmDDataCenterUrl: d.url,
      requestTimeoutMs: 5_000,
      ...overrides,
    }),
    reset: () => {
      for (const server of [a, b, c, d]) server.reset();
      clearScmATokenCache();
    },
    close: async () => {
      clearScmATokenCache();
      await Promise.all([a.close(), b.close(), c.close(), d.close()]);
    },
  };
}

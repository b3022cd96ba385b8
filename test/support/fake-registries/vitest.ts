import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createRegistryClients } from '../../../src/ecosystems/registry-clients';
import type { RegistriesSettings, RegistryClient } from '../../../src/ecosystems/registry-types';
import type { Ecosystem } from '../../../src/ecosystems/types';
import { type FakeRegistries, type FakeRegistriesOptions, startFakeRegistries } from './index';

/** Starts the fake registries for a test file; faults and the request log reset before each test. */
export function useFakeRegistries(options: FakeRegistriesOptions = {}): { fake: FakeRegistries } {
  const holder = {} as { fake: FakeRegistries };
  beforeAll(async () => {
    holder.fake = await startFakeRegistries(options);
  });
  afterAll(async () => {
    await holder.fake.close();
  });
  beforeEach(() => {
    holder.fake.clearFaults();
    holder.fake.requests.length = 0;
  });
  return holder;
}

/** A fresh client (own response cache) for one ecosystem, pointed at the fake server. */
export function fakeClient(
  fake: FakeRegistries,
  ecosystem: Ecosystem,
  overrides: Partial<Omit<RegistriesSettings, 'baseUrls'>> = {},
): RegistryClient {
  return createRegistryClients(fake.settings(overrides))[ecosystem];
}

/** Paths (with query) the fake server was asked for, in order. */
export function requestedPaths(fake: FakeRegistries): string[] {
  return fake.requests.map((r) => r.path);
}

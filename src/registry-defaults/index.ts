import type { Ecosystem } from '../ecosystems/names';
import { readCargoRegistry } from './cargo';
import { readComposerRegistry } from './composer';
import { readDockerRegistry } from './docker';
import { readGoRegistry } from './go';
import type { ClientConfigInputs, ClientReader, ClientRegistry } from './inputs';
import { readMavenRegistry } from './maven';
import { readNpmRegistry } from './npm';
import { readNuGetRegistry } from './nuget';
import { readPipRegistry } from './pip';
import type { UnreachableRegistries } from './reachability';
import { readRubyGemsRegistry } from './rubygems';

/**
 * Registry and advisory-feed defaults of a running service (docs/registries.md): each
 * ecosystem's registry as that ecosystem's own client is configured on this machine, and the
 * public OSV export. Read once at start by the process entry and handed to `loadConfig`, which
 * lets Driftwatch's own settings win; `loadConfig` alone (tests, tools) sees none of them.
 */
export type { ClientConfigInputs, ClientRegistry } from './inputs';

/** Driftwatch's own setting of each ecosystem's registry: it wins over the client's. */
export const REGISTRY_SETTINGS: Record<Ecosystem, string> = {
  npm: 'NPM_REGISTRY_URL',
  PyPI: 'PYPI_URL',
  Maven: 'MAVEN_REPOSITORY_URL',
  Go: 'GOPROXY_URL',
  Cargo: 'CRATES_API_URL',
  RubyGems: 'RUBYGEMS_URL',
  Composer: 'PACKAGIST_URL',
  NuGet: 'NUGET_SERVICE_INDEX_URL',
  Docker: 'OCI_REGISTRY_URL',
};

/** Where each client keeps its registry, for the banner's "off" lines. */
const CLIENT_PLACES: Record<Ecosystem, string> = {
  npm: 'npm: registry in .npmrc',
  PyPI: 'pip: index-url in pip.conf',
  Maven: 'Maven: a central mirror in ~/.m2/settings.xml',
  Go: 'Go: GOPROXY',
  Cargo: 'Cargo: a cached crates index',
  RubyGems: 'gem: :sources: in ~/.gemrc',
  Composer: 'Composer: repositories in config.json',
  NuGet: 'NuGet: packageSources in NuGet.Config',
  Docker: 'Docker: registry-mirrors in daemon.json',
};

const READERS: Record<Ecosystem, ClientReader> = {
  npm: readNpmRegistry,
  PyPI: readPipRegistry,
  Maven: readMavenRegistry,
  Go: readGoRegistry,
  Cargo: readCargoRegistry,
  RubyGems: readRubyGemsRegistry,
  Composer: readComposerRegistry,
  NuGet: readNuGetRegistry,
  Docker: readDockerRegistry,
};

/**
 * The OSV project's public per-ecosystem exports (`{base}/{ecosystem}/all.zip`): the advisory
 * feed a running service syncs unless OSV_FEED_URL names another or `off`
 * (docs/decisions/0005-default-registries-and-advisory-feed.md).
 */
export const OSV_PUBLIC_FEED_URL = 'https://osv-vulnerabilities.storage.googleapis.com';

export interface MachineDefaults {
  registries: Partial<Record<Ecosystem, { url: string; source: string }>>;
  /** Why a client that is present gives no registry (GOPROXY=direct...). */
  notes: Partial<Record<Ecosystem, string>>;
  /** Client configuration files that could not be used (malformed...). */
  warnings: string[];
  osvFeedUrl: string | null;
}

export const NO_MACHINE_DEFAULTS: MachineDefaults = {
  registries: {},
  notes: {},
  warnings: [],
  osvFeedUrl: null,
};

async function safely(ecosystem: Ecosystem, inputs: ClientConfigInputs): Promise<ClientRegistry> {
  try {
    return await READERS[ecosystem](inputs);
  } catch (error) {
    // The readers catch what they expect; anything else must still not stop the service.
    return { url: null, note: null, warnings: [`${ecosystem}: ${(error as Error).message}`] };
  }
}

/** Every ecosystem's client configuration, read once (all readers side by side). */
export async function discoverClientRegistries(
  inputs: ClientConfigInputs,
): Promise<Omit<MachineDefaults, 'osvFeedUrl'>> {
  const out: Omit<MachineDefaults, 'osvFeedUrl'> = { registries: {}, notes: {}, warnings: [] };
  const ids = Object.keys(READERS) as Ecosystem[];
  const results = await Promise.all(ids.map((id) => safely(id, inputs)));
  ids.forEach((id, i) => {
    const result = results[i] as ClientRegistry;
    out.warnings.push(...result.warnings);
    if (result.url !== null) out.registries[id] = { url: result.url, source: result.source };
    else if (result.note) out.notes[id] = result.note;
  });
  return out;
}

/**
 * The defaults of a running service: the clients' registries (unless REGISTRY_CLIENT_DEFAULTS
 * turns them off, which loadConfig validates) and the public OSV feed.
 */
export async function readMachineDefaults(inputs: ClientConfigInputs): Promise<MachineDefaults> {
  const useClients = !['0', 'false', 'no', 'off'].includes(
    (inputs.env.REGISTRY_CLIENT_DEFAULTS ?? '').trim().toLowerCase(),
  );
  const clients = useClients
    ? await discoverClientRegistries(inputs)
    : { registries: {}, notes: {}, warnings: [] };
  return { ...clients, osvFeedUrl: OSV_PUBLIC_FEED_URL };
}

/** Where a registry or feed address came from. */
export type SettingOrigin =
  | { kind: 'setting'; setting: string }
  | { kind: 'client'; source: string }
  | { kind: 'default'; setting: string }
  | { kind: 'off'; setting: string; note: string | null };

export interface DefaultsOrigins {
  registries: Record<Ecosystem, SettingOrigin>;
  osvFeed: SettingOrigin;
  warnings: string[];
}

/** The part of the service configuration the banner describes (Config has this shape). */
export interface DescribedConfig {
  registries: { baseUrls: Record<Ecosystem, string | null> };
  osv: { feedUrl: string | null };
  origins: DefaultsOrigins;
}

function describe(url: string | null, origin: SettingOrigin, offHint: string): string {
  switch (origin.kind) {
    case 'setting':
      return `on   ${url}  (${origin.setting})`;
    case 'client':
      return `on   ${url}  (${origin.source})`;
    case 'default':
      return `on   ${url}  (default; ${origin.setting}=off turns it off)`;
    case 'off':
      // Turned off on purpose (`X=off`): say so, not how to turn it on.
      if (origin.note?.includes('=')) return `off  (${origin.note})`;
      return `off  ${origin.note ? `${origin.note}; ` : ''}set ${origin.setting}${offHint}`;
  }
}

/**
 * The start banner's lines: each registry and the advisory feed, on or off, and why; a registry
 * that gave no answer to the start-up check (`unreachable`) says so under its line.
 */
export function describeRegistries(
  config: DescribedConfig,
  unreachable: UnreachableRegistries = {},
): string[] {
  const lines = ['Registries:'];
  for (const id of Object.keys(REGISTRY_SETTINGS) as Ecosystem[]) {
    const origin = config.origins.registries[id];
    const text = describe(
      config.registries.baseUrls[id],
      origin,
      ` or configure ${CLIENT_PLACES[id]}`,
    );
    lines.push(`  ${id.padEnd(9)} ${text}`);
    const why = unreachable[id];
    if (why) {
      lines.push(
        `            cannot be reached (${why}): its packages stay pending until it answers`,
      );
    }
  }
  lines.push('Advisory feed:');
  lines.push(`  ${'OSV'.padEnd(9)} ${describe(config.osv.feedUrl, config.origins.osvFeed, '')}`);
  for (const warning of config.origins.warnings) lines.push(`  warning: ${warning}`);
  return lines;
}

import { join } from 'node:path';
import { JSON_FORMAT, registryInFiles } from './config-files';
import { baseUrl, type ClientConfigInputs, type ClientRegistry, configHome } from './inputs';

/** Composer's global directory: COMPOSER_HOME, else the XDG one, else `~/.composer`. */
function composerHomes(inputs: ClientConfigInputs): string[] {
  if (inputs.env.COMPOSER_HOME) return [inputs.env.COMPOSER_HOME];
  return [join(configHome(inputs), 'composer'), join(inputs.home, '.composer')];
}

/** Entries of `repositories`, which Composer accepts as a list or as an object keyed by name. */
function repositoryEntries(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) return Object.values(value);
  return [];
}

/**
 * The first repository of type `composer` with an http(s) URL in the global `config.json`
 * (a mirror of the default repository is declared this way).
 */
export function readComposerRegistry(inputs: ClientConfigInputs): ClientRegistry {
  const files = composerHomes(inputs).map((home) => join(home, 'config.json'));
  return registryInFiles(inputs, files, JSON_FORMAT, 'repositories', firstComposerRepository);
}

function firstComposerRepository(config: unknown): string | null {
  if (typeof config !== 'object' || config === null) return null;
  for (const entry of repositoryEntries(Reflect.get(config, 'repositories'))) {
    if (typeof entry !== 'object' || entry === null) continue;
    if (Reflect.get(entry, 'type') !== 'composer') continue;
    const url = baseUrl(Reflect.get(entry, 'url'));
    if (url) return url;
  }
  return null;
}

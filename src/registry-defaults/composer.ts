import { join } from 'node:path';
import {
  type ClientConfigInputs,
  type ClientRegistry,
  configHome,
  found,
  httpUrl,
  none,
  shown,
} from './inputs';

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
  const warnings: string[] = [];
  for (const home of composerHomes(inputs)) {
    const file = join(home, 'config.json');
    const text = inputs.readText(file);
    if (text === null) continue;
    const where = shown(file, inputs.home);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      warnings.push(`${where} is not valid JSON: ignored`);
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null) continue;
    for (const entry of repositoryEntries(Reflect.get(parsed, 'repositories'))) {
      if (typeof entry !== 'object' || entry === null) continue;
      if (Reflect.get(entry, 'type') !== 'composer') continue;
      const url = httpUrl(Reflect.get(entry, 'url'));
      if (url) return found(url.replace(/\/+$/, ''), `${where} (repositories)`, warnings);
    }
  }
  return none(null, warnings);
}

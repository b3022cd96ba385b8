import { join } from 'node:path';
import { isTomlTable, type TomlTable } from '../ecosystems/shared/toml';
import { firstInFiles, TOML_FORMAT } from './config-files';
import {
  ancestors,
  type ClientConfigInputs,
  type ClientRegistry,
  found,
  httpUrl,
  none,
} from './inputs';

/**
 * Cargo names a registry by its index; Driftwatch needs the crates web API, which the index
 * declares in its `config.json` (`api`). Cargo keeps that file in its index cache
 * (`$CARGO_HOME/registry/index/<host>-<hash>/`), so it is read from there, never fetched.
 */

function cargoHome(inputs: ClientConfigInputs): string {
  return inputs.env.CARGO_HOME || join(inputs.home, '.cargo');
}

/** Cargo's configuration files, highest precedence first: the project's, then CARGO_HOME's. */
function cargoConfigFiles(inputs: ClientConfigInputs): string[] {
  const dirs = [...ancestors(inputs.cwd).map((dir) => join(dir, '.cargo')), cargoHome(inputs)];
  const files: string[] = [];
  for (const dir of [...new Set(dirs)]) files.push(join(dir, 'config.toml'), join(dir, 'config'));
  return files;
}

function table(value: unknown, key: string): TomlTable | null {
  const child = isTomlTable(value) ? value[key] : undefined;
  return isTomlTable(child) ? child : null;
}

function envKey(name: string): string {
  return name.toUpperCase().replaceAll('-', '_');
}

type IndexChoice = { index: string; source: string } | { reason: string } | null;

/** Where `[source.crates-io] replace-with` leads in one file (and the environment). */
function replacement(
  config: TomlTable,
  where: string,
  env: ClientConfigInputs['env'],
): IndexChoice {
  const replaceWith = table(table(config, 'source'), 'crates-io')?.['replace-with'];
  if (typeof replaceWith !== 'string') return null;
  const source = table(table(config, 'source'), replaceWith);
  const registry = table(table(config, 'registries'), replaceWith);
  const index =
    env[`CARGO_REGISTRIES_${envKey(replaceWith)}_INDEX`] ??
    (typeof source?.registry === 'string' ? source.registry : undefined) ??
    (typeof registry?.index === 'string' ? registry.index : undefined);
  if (index) return { index, source: `${where} (source ${replaceWith})` };
  if (source && ('local-registry' in source || 'directory' in source)) {
    return { reason: `crates-io is replaced by the local source "${replaceWith}" (no web API)` };
  }
  return { reason: `${where}: replace-with names "${replaceWith}", which has no index` };
}

/** The `api` of the cached index configuration whose directory matches the index host. */
function cachedApi(inputs: ClientConfigInputs, index: string | null): string | null {
  const root = join(cargoHome(inputs), 'registry', 'index');
  const host = index ? hostOf(index) : null;
  const dirs = inputs.listDir(root).filter((dir) => host === null || dir.startsWith(`${host}-`));
  // The default registry is only usable when the cache is unambiguous: one index.
  if (host === null && dirs.length !== 1) return null;
  for (const dir of dirs) {
    for (const file of [join(root, dir, 'config.json'), join(root, dir, '.cache', 'config.json')]) {
      const api = apiOf(inputs.readText(file));
      if (api) return api;
    }
  }
  return null;
}

function hostOf(index: string): string | null {
  try {
    return new URL(index.replace(/^sparse\+/, '')).hostname;
  } catch {
    return null;
  }
}

function apiOf(text: string | null): string | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isTomlTable(parsed) ? httpUrl(parsed.api) : null;
  } catch {
    return null;
  }
}

/**
 * The crates API of the registry Cargo uses for crates-io: `[source.crates-io] replace-with`
 * (followed to `[source.<name>] registry` or `[registries.<name>] index`, or
 * `CARGO_REGISTRIES_<NAME>_INDEX`) in the project's or CARGO_HOME's config.toml, else crates-io
 * itself; then the `api` its cached index configuration declares.
 */
export function readCargoRegistry(inputs: ClientConfigInputs): ClientRegistry {
  const warnings: string[] = [];
  const choice = firstInFiles(
    inputs,
    cargoConfigFiles(inputs),
    TOML_FORMAT,
    warnings,
    (config, where) => replacement(config, where, inputs.env),
  );
  if (choice && 'reason' in choice) return none(choice.reason, warnings);
  const api = cachedApi(inputs, choice?.index ?? null);
  if (api) {
    const via = choice ? `${choice.source}, its cached index config.json` : 'the cached index';
    return found(api, `Cargo: ${via}`, warnings);
  }
  const home = inputs.listDir(cargoHome(inputs)).length > 0;
  return none(home ? 'no cached index names a crates API (run cargo once)' : null, warnings);
}

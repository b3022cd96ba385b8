import { dirname, join } from 'node:path';
import {
  ancestors,
  type ClientConfigInputs,
  type ClientRegistry,
  envAnyCase,
  found,
  httpUrl,
  none,
  parseIni,
  shown,
} from './inputs';

/** npm's `${VAR}` substitution in npmrc values (unset variables are an error in npm: no value). */
function substitute(value: string, env: ClientConfigInputs['env']): string | null {
  let missing = false;
  const out = value.replace(/(\\*)\$\{([^}]{1,100})\}/g, (whole, escapes: string, name: string) => {
    if (escapes.length % 2 === 1) return whole.slice(1);
    const bare = name.endsWith('?') ? name.slice(0, -1) : name;
    const resolved = env[bare];
    if (resolved === undefined) missing = !name.endsWith('?');
    return `${escapes}${resolved ?? ''}`;
  });
  return missing ? null : out;
}

/** npm's project root: the nearest directory from cwd holding package.json or node_modules. */
function projectRoot(inputs: ClientConfigInputs): string | null {
  for (const dir of ancestors(inputs.cwd)) {
    if (inputs.listDir(dir).some((name) => name === 'package.json' || name === 'node_modules')) {
      return dir;
    }
  }
  return null;
}

/** The npmrc files in npm's order of precedence: project, user, global. */
export function npmrcFiles(inputs: ClientConfigInputs): string[] {
  const files: string[] = [];
  const root = projectRoot(inputs);
  if (root) files.push(join(root, '.npmrc'));
  files.push(envAnyCase(inputs.env, 'npm_config_userconfig') ?? join(inputs.home, '.npmrc'));
  const globalConfig = envAnyCase(inputs.env, 'npm_config_globalconfig');
  if (globalConfig) files.push(globalConfig);
  else {
    const prefix =
      envAnyCase(inputs.env, 'npm_config_prefix') ??
      inputs.env.PREFIX ??
      dirname(dirname(inputs.execPath));
    files.push(join(prefix, 'etc', 'npmrc'));
  }
  return files;
}

/**
 * `npm config get registry` without starting npm: the `npm_config_registry` environment variable
 * (npm sets it for the scripts it runs), then the npmrc files. When none names a registry, npm's
 * built-in default is asked from npm itself, once.
 */
export async function readNpmRegistry(inputs: ClientConfigInputs): Promise<ClientRegistry> {
  const warnings: string[] = [];
  const fromEnv = envAnyCase(inputs.env, 'npm_config_registry');
  if (fromEnv !== undefined) {
    const url = httpUrl(fromEnv);
    if (url) return found(url, 'npm_config_registry', warnings);
    warnings.push('npm_config_registry is not an http(s) URL: ignored');
  }
  for (const file of npmrcFiles(inputs)) {
    const text = inputs.readText(file);
    if (text === null) continue;
    const raw = parseIni(text).get('')?.get('registry');
    if (raw === undefined) continue;
    const value = substitute(raw, inputs.env);
    const url = value === null ? null : httpUrl(value);
    if (url) return found(url, `${shown(file, inputs.home)} (registry)`, warnings);
    warnings.push(`${shown(file, inputs.home)}: registry is not an http(s) URL: ignored`);
  }
  const asked = await inputs.run?.('npm', ['config', 'get', 'registry']);
  const url = httpUrl(asked?.trim().split('\n').pop());
  if (url) return found(url, 'npm config get registry', warnings);
  return none(asked === undefined ? null : 'npm is not installed or names no registry', warnings);
}

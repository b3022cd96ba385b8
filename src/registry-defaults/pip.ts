import { join } from 'node:path';
import {
  type ClientConfigInputs,
  type ClientRegistry,
  configHome,
  found,
  httpUrl,
  none,
  parseIni,
  shown,
} from './inputs';

/**
 * pip's index is a "simple" index (`…/simple/`); Driftwatch reads the JSON API that the same
 * servers (PyPI, devpi, the common repository managers) serve one level up (`…/pypi/<name>/json`).
 */
export function jsonApiBase(indexUrl: string): string {
  return indexUrl.replace(/\/+$/, '').replace(/\/simple$/i, '');
}

/** pip's configuration files, highest precedence first (pip reads them the other way round). */
export function pipConfigFiles(inputs: ClientConfigInputs): string[] {
  const files: string[] = [];
  if (inputs.env.PIP_CONFIG_FILE && inputs.env.PIP_CONFIG_FILE !== 'os.devnull') {
    files.push(inputs.env.PIP_CONFIG_FILE);
  }
  if (inputs.env.VIRTUAL_ENV) files.push(join(inputs.env.VIRTUAL_ENV, 'pip.conf'));
  files.push(join(configHome(inputs), 'pip', 'pip.conf'), join(inputs.home, '.pip', 'pip.conf'));
  files.push('/etc/pip.conf', '/etc/xdg/pip/pip.conf');
  return files;
}

const PIP_DEFAULT_INDEX = [
  '-c',
  'from pip._internal.models.index import PyPI; print(PyPI.simple_url)',
];

/**
 * pip's index: `PIP_INDEX_URL`, then `index-url` of `[global]` (or `[install]`) in pip.conf; when
 * nothing is configured, the installed pip's own default, asked once.
 */
export async function readPipRegistry(inputs: ClientConfigInputs): Promise<ClientRegistry> {
  const warnings: string[] = [];
  const fromEnv = inputs.env.PIP_INDEX_URL;
  if (fromEnv) {
    const url = httpUrl(fromEnv);
    if (url) return found(jsonApiBase(url), 'PIP_INDEX_URL', warnings);
    warnings.push('PIP_INDEX_URL is not an http(s) URL: ignored');
  }
  for (const file of pipConfigFiles(inputs)) {
    const text = inputs.readText(file);
    if (text === null) continue;
    const sections = parseIni(text);
    for (const section of ['global', 'install']) {
      const values = sections.get(section);
      const raw = values?.get('index-url') ?? values?.get('index_url');
      if (raw === undefined) continue;
      const url = httpUrl(raw);
      const where = `${shown(file, inputs.home)} ([${section}] index-url)`;
      if (url) return found(jsonApiBase(url), where, warnings);
      warnings.push(`${where} is not an http(s) URL: ignored`);
    }
  }
  const asked = await inputs.run?.('python3', PIP_DEFAULT_INDEX);
  const url = httpUrl(asked?.trim());
  if (url) return found(jsonApiBase(url), "the installed pip's default index", warnings);
  return none(asked === undefined ? null : 'pip is not installed or names no index', warnings);
}

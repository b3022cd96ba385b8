import { join } from 'node:path';
import { parseYaml, yamlToJs } from '../ecosystems/shared/yaml';
import {
  type ClientConfigInputs,
  type ClientRegistry,
  found,
  httpUrl,
  none,
  shown,
} from './inputs';

/** gem's configuration files, highest precedence first (`GEMRC` lists its own, `:`-separated). */
function gemrcFiles(inputs: ClientConfigInputs): string[] {
  const fromEnv = (inputs.env.GEMRC ?? '').split(':').filter(Boolean);
  return [...fromEnv.reverse(), join(inputs.home, '.gemrc'), '/etc/gemrc'];
}

function sourcesOf(text: string): string[] | 'invalid' {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.doc.errors.length > 0) return 'invalid';
  try {
    const value = yamlToJs(parsed.doc);
    if (typeof value !== 'object' || value === null) return [];
    const sources = (value as Record<string, unknown>)[':sources'];
    return Array.isArray(sources) ? sources.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return 'invalid';
  }
}

/**
 * RubyGems' first source: `:sources:` of the gemrc files; when none lists one, the installed
 * gem's own list (`gem sources --list`), asked once.
 */
export async function readRubyGemsRegistry(inputs: ClientConfigInputs): Promise<ClientRegistry> {
  const warnings: string[] = [];
  for (const file of gemrcFiles(inputs)) {
    const text = inputs.readText(file);
    if (text === null) continue;
    const where = shown(file, inputs.home);
    const sources = sourcesOf(text);
    if (sources === 'invalid') {
      warnings.push(`${where} is not valid YAML: ignored`);
      continue;
    }
    const url = sources.map(httpUrl).find((u) => u !== null);
    if (url) return found(url.replace(/\/+$/, ''), `${where} (:sources:)`, warnings);
  }
  const asked = await inputs.run?.('gem', ['sources', '--list']);
  const url = (asked ?? '')
    .split('\n')
    .map(httpUrl)
    .find((u) => u !== null);
  if (url) return found(url.replace(/\/+$/, ''), 'gem sources --list', warnings);
  return none(asked === undefined ? null : 'gem is not installed or lists no source', warnings);
}

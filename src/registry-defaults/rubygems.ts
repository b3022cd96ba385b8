import { join } from 'node:path';
import { registryInFiles, YAML_FORMAT } from './config-files';
import { baseUrl, type ClientConfigInputs, type ClientRegistry, found, none } from './inputs';

/** gem's configuration files, highest precedence first (`GEMRC` lists its own, `:`-separated). */
function gemrcFiles(inputs: ClientConfigInputs): string[] {
  const fromEnv = (inputs.env.GEMRC ?? '').split(':').filter(Boolean);
  return [...fromEnv.reverse(), join(inputs.home, '.gemrc'), '/etc/gemrc'];
}

function firstSource(gemrc: unknown): string | null | undefined {
  const sources =
    typeof gemrc === 'object' && gemrc !== null ? Reflect.get(gemrc, ':sources') : null;
  return Array.isArray(sources) ? sources.map(baseUrl).find((u) => u !== null) : null;
}

/**
 * RubyGems' first source: `:sources:` of the gemrc files; when none lists one, the installed
 * gem's own list (`gem sources --list`), asked once.
 */
export async function readRubyGemsRegistry(inputs: ClientConfigInputs): Promise<ClientRegistry> {
  const fromFiles = registryInFiles(
    inputs,
    gemrcFiles(inputs),
    YAML_FORMAT,
    ':sources:',
    firstSource,
  );
  if (fromFiles.url !== null) return fromFiles;
  const { warnings } = fromFiles;
  const asked = await inputs.run?.('gem', ['sources', '--list']);
  const url = (asked ?? '')
    .split('\n')
    .map(baseUrl)
    .find((u) => u !== null);
  if (url) return found(url, 'gem sources --list', warnings);
  return none(asked === undefined ? null : 'gem is not installed or lists no source', warnings);
}

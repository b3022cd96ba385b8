import { parseTomlOrThrow, type TomlTable } from '../ecosystems/shared/toml';
import { parseXml, type XmlElement } from '../ecosystems/shared/xml';
import { parseYaml, yamlToJs } from '../ecosystems/shared/yaml';
import { type ClientConfigInputs, type ClientRegistry, found, none, shown } from './inputs';

/** A client-configuration file format: `parse` throws when the text is malformed. */
export interface ConfigFormat<T> {
  name: 'JSON' | 'TOML' | 'XML' | 'YAML';
  parse(text: string): T;
}

export const JSON_FORMAT: ConfigFormat<unknown> = {
  name: 'JSON',
  parse: (text) => JSON.parse(text),
};

export const TOML_FORMAT: ConfigFormat<TomlTable> = { name: 'TOML', parse: parseTomlOrThrow };

export const XML_FORMAT: ConfigFormat<XmlElement> = {
  name: 'XML',
  parse(text) {
    const { root, errors } = parseXml(text);
    if (!root || errors.length > 0) throw new Error('malformed XML');
    return root;
  },
};

export const YAML_FORMAT: ConfigFormat<unknown> = {
  name: 'YAML',
  parse(text) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.doc.errors.length > 0) throw new Error('malformed YAML');
    return yamlToJs(parsed.doc);
  },
};

/**
 * The first answer `pick` gives for `files`, in order (highest precedence first). A missing file
 * is passed over; a malformed one too, with a warning, because a client ignores it just the same
 * and the start must not fail on it.
 */
export function firstInFiles<T, R>(
  inputs: ClientConfigInputs,
  files: string[],
  format: ConfigFormat<T>,
  warnings: string[],
  pick: (parsed: T, where: string) => R | null,
): R | null {
  for (const file of files) {
    const text = inputs.readText(file);
    if (text === null) continue;
    const where = shown(file, inputs.home);
    let parsed: T;
    try {
      parsed = format.parse(text);
    } catch {
      warnings.push(`${where} is not valid ${format.name}: ignored`);
      continue;
    }
    const answer = pick(parsed, where);
    if (answer !== null) return answer;
  }
  return null;
}

/**
 * The registry the first of `files` names (`urlOf`), its source shown as the file and `key`;
 * none (with the files' warnings) when no file names one.
 */
export function registryInFiles<T>(
  inputs: ClientConfigInputs,
  files: string[],
  format: ConfigFormat<T>,
  key: string,
  urlOf: (parsed: T) => string | null | undefined,
): ClientRegistry {
  const warnings: string[] = [];
  const hit = firstInFiles(inputs, files, format, warnings, (parsed, where) => {
    const url = urlOf(parsed);
    return url ? found(url, `${where} (${key})`, warnings) : null;
  });
  return hit ?? none(null, warnings);
}

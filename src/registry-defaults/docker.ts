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

/**
 * The Docker daemon's first `registry-mirrors` entry (`/etc/docker/daemon.json`, or the rootless
 * daemon's `~/.config/docker/daemon.json`): a pull-through mirror of the default registry.
 */
export function readDockerRegistry(inputs: ClientConfigInputs): ClientRegistry {
  const warnings: string[] = [];
  const files = [join(configHome(inputs), 'docker', 'daemon.json'), '/etc/docker/daemon.json'];
  for (const file of files) {
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
    const mirrors =
      typeof parsed === 'object' && parsed !== null
        ? Reflect.get(parsed, 'registry-mirrors')
        : null;
    const url = Array.isArray(mirrors) ? mirrors.map(httpUrl).find((u) => u !== null) : null;
    if (url) return found(url.replace(/\/+$/, ''), `${where} (registry-mirrors)`, warnings);
  }
  return none(null, warnings);
}

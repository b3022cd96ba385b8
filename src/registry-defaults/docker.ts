import { join } from 'node:path';
import { JSON_FORMAT, registryInFiles } from './config-files';
import { baseUrl, type ClientConfigInputs, type ClientRegistry, configHome } from './inputs';

/**
 * The Docker daemon's first `registry-mirrors` entry (`/etc/docker/daemon.json`, or the rootless
 * daemon's `~/.config/docker/daemon.json`): a pull-through mirror of the default registry.
 */
export function readDockerRegistry(inputs: ClientConfigInputs): ClientRegistry {
  const files = [join(configHome(inputs), 'docker', 'daemon.json'), '/etc/docker/daemon.json'];
  return registryInFiles(inputs, files, JSON_FORMAT, 'registry-mirrors', (daemon) => {
    const mirrors =
      typeof daemon === 'object' && daemon !== null
        ? Reflect.get(daemon, 'registry-mirrors')
        : null;
    return Array.isArray(mirrors) ? mirrors.map(baseUrl).find((u) => u !== null) : null;
  });
}

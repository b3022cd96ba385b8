import { join } from 'node:path';
import type { XmlElement } from '../ecosystems/shared/xml';
import { registryInFiles, XML_FORMAT } from './config-files';
import { baseUrl, type ClientConfigInputs, type ClientRegistry } from './inputs';

function childText(element: XmlElement, name: string): string {
  return element.children.find((c) => c.name === name)?.text ?? '';
}

/** A mirror that Maven uses for its central repository (`*`, `central`, `external:*`...). */
function mirrorsCentral(mirrorOf: string): boolean {
  const ids = mirrorOf.split(',').map((id) => id.trim());
  if (ids.includes('!central')) return false;
  return ids.some((id) => id === '*' || id === 'central' || id === 'external:*');
}

/** The first `<mirror>` of the central repository in Maven's settings.xml (user, then global). */
export function readMavenRegistry(inputs: ClientConfigInputs): ClientRegistry {
  const files = [join(inputs.home, '.m2', 'settings.xml')];
  if (inputs.env.MAVEN_HOME) files.push(join(inputs.env.MAVEN_HOME, 'conf', 'settings.xml'));
  files.push('/etc/maven/settings.xml');
  return registryInFiles(inputs, files, XML_FORMAT, 'mirror', centralMirror);
}

function centralMirror(settings: XmlElement): string | null {
  const mirrors = settings.children.find((c) => c.name === 'mirrors')?.children ?? [];
  for (const mirror of mirrors) {
    if (mirror.name !== 'mirror' || !mirrorsCentral(childText(mirror, 'mirrorOf'))) continue;
    const url = baseUrl(childText(mirror, 'url'));
    if (url) return url;
  }
  return null;
}

import { join } from 'node:path';
import { parseXml, type XmlElement } from '../ecosystems/shared/xml';
import {
  type ClientConfigInputs,
  type ClientRegistry,
  found,
  httpUrl,
  none,
  shown,
} from './inputs';

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
  const warnings: string[] = [];
  const files = [join(inputs.home, '.m2', 'settings.xml')];
  if (inputs.env.MAVEN_HOME) files.push(join(inputs.env.MAVEN_HOME, 'conf', 'settings.xml'));
  files.push('/etc/maven/settings.xml');
  for (const file of files) {
    const text = inputs.readText(file);
    if (text === null) continue;
    const where = shown(file, inputs.home);
    const { root, errors } = parseXml(text);
    if (!root || errors.length > 0) {
      warnings.push(`${where} is not valid XML: ignored`);
      continue;
    }
    const mirrors = root.children.find((c) => c.name === 'mirrors')?.children ?? [];
    for (const mirror of mirrors) {
      if (mirror.name !== 'mirror' || !mirrorsCentral(childText(mirror, 'mirrorOf'))) continue;
      const url = httpUrl(childText(mirror, 'url'));
      if (url) return found(url.replace(/\/+$/, ''), `${where} (mirror)`, warnings);
    }
  }
  return none(null, warnings);
}

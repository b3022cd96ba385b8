import { join } from 'node:path';
import type { XmlElement } from '../ecosystems/shared/xml';
import { registryInFiles, XML_FORMAT } from './config-files';
import { type ClientConfigInputs, type ClientRegistry, httpUrl } from './inputs';

function child(element: XmlElement | null | undefined, name: string): XmlElement | null {
  return element?.children.find((c) => c.name.toLowerCase() === name.toLowerCase()) ?? null;
}

/** The enabled v3 sources of one NuGet.Config, in order (`<clear/>` drops those before it). */
function v3Sources(root: XmlElement): string[] {
  const disabled = new Set(
    (child(root, 'disabledPackageSources')?.children ?? [])
      .filter((c) => c.name === 'add' && c.attrs.value?.toLowerCase() === 'true')
      .map((c) => c.attrs.key ?? ''),
  );
  let urls: string[] = [];
  for (const entry of child(root, 'packageSources')?.children ?? []) {
    if (entry.name === 'clear') urls = [];
    if (entry.name !== 'add' || disabled.has(entry.attrs.key ?? '')) continue;
    const url = httpUrl(entry.attrs.value);
    if (url && (entry.attrs.protocolVersion === '3' || /\/index\.json$/i.test(url))) urls.push(url);
  }
  return urls;
}

/** The first enabled NuGet v3 package source of the user's NuGet.Config. */
export function readNuGetRegistry(inputs: ClientConfigInputs): ClientRegistry {
  const files = [
    join(inputs.home, '.nuget', 'NuGet', 'NuGet.Config'),
    join(inputs.home, '.config', 'NuGet', 'NuGet.Config'),
  ];
  return registryInFiles(inputs, files, XML_FORMAT, 'packageSources', (root) => v3Sources(root)[0]);
}

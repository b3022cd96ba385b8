import { cargo } from './cargo/index';
import { composer } from './composer/index';
import { docker } from './docker/index';
import { go } from './go/index';
import { maven } from './maven/index';
import { npm } from './npm/index';
import { nuget } from './nuget/index';
import { pypi } from './pypi/index';
import { rubygems } from './rubygems/index';
import type { Ecosystem, EcosystemModule } from './types';

/** Every supported ecosystem, in the specification's order. The contract test loops over this. */
export const ecosystems: readonly EcosystemModule[] = [
  npm,
  nuget,
  pypi,
  maven,
  go,
  cargo,
  rubygems,
  composer,
  docker,
];

const byId = new Map<Ecosystem, EcosystemModule>(ecosystems.map((e) => [e.id, e]));

export function getEcosystem(id: Ecosystem): EcosystemModule {
  const module = byId.get(id);
  if (!module) throw new Error(`unknown ecosystem ${id}`);
  return module;
}

/** Finds an ecosystem by an OSV ecosystem name (`crates.io`, `PyPI`, ...) or spec spelling. */
export function findEcosystem(name: string): EcosystemModule | undefined {
  const lower = name.toLowerCase();
  return ecosystems.find(
    (e) => e.id.toLowerCase() === lower || e.osvEcosystem.toLowerCase() === lower,
  );
}

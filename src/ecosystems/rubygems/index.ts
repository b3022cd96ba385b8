import type { EcosystemModule } from '../types';
import { gemfileExtractor } from './extract-gemfile';
import { gemfileLockExtractor } from './extract-gemfile-lock';
import { rubygemsRegistry } from './registry';
import { rubygemsVersioning } from './versioning';

export const rubygems: EcosystemModule = {
  id: 'RubyGems',
  purlType: 'gem',
  osvEcosystem: 'RubyGems',
  // Gem names are case-sensitive on rubygems.org (`RedCloth` and `redcloth` can differ): as written.
  normaliseName: (name) => name.trim(),
  extractors: [gemfileLockExtractor, gemfileExtractor],
  versioning: rubygemsVersioning,
  registry: (settings) => rubygemsRegistry(rubygems, settings),
};

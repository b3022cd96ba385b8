import type { EcosystemModule } from '../types';
import { composerJsonExtractor } from './extract-composer-json';
import { composerLockExtractor } from './extract-composer-lock';
import { normaliseComposerName } from './names';
import { composerRegistry } from './registry';
import { composerVersioning } from './versioning';

export const composer: EcosystemModule = {
  id: 'Composer',
  purlType: 'composer',
  osvEcosystem: 'Packagist',
  normaliseName: normaliseComposerName,
  extractors: [composerLockExtractor, composerJsonExtractor],
  versioning: composerVersioning,
  registry: (settings) => composerRegistry(composer, settings),
};

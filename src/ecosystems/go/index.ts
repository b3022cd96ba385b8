import type { EcosystemModule } from '../types';
import { goModExtractor } from './extract-go-mod';
import { goSumExtractor } from './extract-go-sum';
import { goRegistry } from './registry';
import { goVersioning } from './versioning';

export const go: EcosystemModule = {
  id: 'Go',
  purlType: 'golang',
  osvEcosystem: 'Go',
  // Module paths are case-sensitive (the module proxy escapes capitals as `!x`), so they are kept
  // exactly as written.
  normaliseName: (name) => name.trim(),
  extractors: [goModExtractor, goSumExtractor],
  versioning: goVersioning,
  registry: (settings) => goRegistry(go, settings),
};

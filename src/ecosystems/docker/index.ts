import type { EcosystemModule } from '../types';
import { composeExtractor } from './extract-compose';
import { dockerfileExtractor } from './extract-dockerfile';
import { normaliseImageName } from './image-ref';
import { dockerRegistry } from './registry';
import { dockerVersioning } from './versioning';

/** OSV has no Docker ecosystem; `Docker` is used as the name so lookups simply find nothing. */
export const docker: EcosystemModule = {
  id: 'Docker',
  purlType: 'docker',
  osvEcosystem: 'Docker',
  normaliseName: normaliseImageName,
  extractors: [dockerfileExtractor, composeExtractor],
  versioning: dockerVersioning,
  registry: (settings) => dockerRegistry(docker, settings),
};

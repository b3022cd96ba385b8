import type { EcosystemModule } from '../types';
import { normaliseNpmName } from './common';
import { packageJsonExtractor } from './extract-package-json';
import { packageLockExtractor } from './extract-package-lock';
import { pnpmLockExtractor } from './extract-pnpm-lock';
import { yarnLockExtractor } from './extract-yarn-lock';
import { npmRegistry } from './registry';
import { npmVersioning } from './versioning';

export const npm: EcosystemModule = {
  id: 'npm',
  purlType: 'npm',
  osvEcosystem: 'npm',
  normaliseName: normaliseNpmName,
  // Lockfiles first: a lockfile wins over the package.json beside it for the same package.
  extractors: [packageLockExtractor, yarnLockExtractor, pnpmLockExtractor, packageJsonExtractor],
  versioning: npmVersioning,
  registry: (settings) => npmRegistry(npm, settings),
};

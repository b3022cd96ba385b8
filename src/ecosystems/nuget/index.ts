import type { EcosystemModule } from '../types';
import { normaliseNuGetName } from './common';
import { directoryPackagesPropsExtractor } from './extract-directory-packages-props';
import { msbuildProjectExtractor } from './extract-msbuild-project';
import { packagesConfigExtractor } from './extract-packages-config';
import { packagesLockExtractor } from './extract-packages-lock';
import { nugetRegistry } from './registry';
import { nugetVersioning } from './versioning';

/** NuGet: packages.lock.json, MSBuild project files, central package management, packages.config. */
export const nuget: EcosystemModule = {
  id: 'NuGet',
  purlType: 'nuget',
  osvEcosystem: 'NuGet',
  normaliseName: normaliseNuGetName,
  extractors: [
    packagesLockExtractor,
    packagesConfigExtractor,
    msbuildProjectExtractor,
    directoryPackagesPropsExtractor,
  ],
  versioning: nugetVersioning,
  registry: (settings) => nugetRegistry(nuget, settings),
};

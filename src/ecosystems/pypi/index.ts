import type { EcosystemModule } from '../types';
import { normaliseName, PURL_TYPE } from './common';
import { pipfileExtractor } from './extract-pipfile';
import { pipfileLockExtractor } from './extract-pipfile-lock';
import { poetryLockExtractor } from './extract-poetry-lock';
import { pyprojectExtractor } from './extract-pyproject';
import { requirementsExtractor } from './extract-requirements';
import { uvLockExtractor } from './extract-uv-lock';
import { pypiRegistry } from './registry';
import { pypiVersioning } from './versioning';

export const pypi: EcosystemModule = {
  id: 'PyPI',
  purlType: PURL_TYPE,
  osvEcosystem: 'PyPI',
  normaliseName,
  extractors: [
    requirementsExtractor,
    pipfileExtractor,
    pipfileLockExtractor,
    poetryLockExtractor,
    uvLockExtractor,
    pyprojectExtractor,
  ],
  versioning: pypiVersioning,
  registry: (settings) => pypiRegistry(pypi, settings),
};

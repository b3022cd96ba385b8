import type { EcosystemModule } from '../types';
import { cargoLockExtractor } from './extract-cargo-lock';
import { cargoTomlExtractor } from './extract-cargo-toml';
import { cargoRegistry } from './registry';
import { cargoVersioning } from './versioning';

export const cargo: EcosystemModule = {
  id: 'Cargo',
  purlType: 'cargo',
  osvEcosystem: 'crates.io',
  // Names stay as published. crates.io treats `-` and `_` (and case) as the same name for
  // uniqueness, but advisories, purls and Cargo.lock use the published spelling, which is also
  // what manifests write; folding them would mis-spell names in reports.
  normaliseName: (name) => name.trim(),
  extractors: [cargoLockExtractor, cargoTomlExtractor],
  versioning: cargoVersioning,
  registry: (settings) => cargoRegistry(cargo, settings),
};

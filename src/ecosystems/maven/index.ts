import type { EcosystemModule } from '../types';
import { normaliseMavenName } from './common';
import { gradleCatalogExtractor } from './extract-gradle-catalog';
import { gradleLockfileExtractor } from './extract-gradle-lockfile';
import { gradleScriptExtractor } from './extract-gradle-script';
import { pomExtractor } from './extract-pom';
import { mavenRegistry } from './registry';
import { mavenVersioning } from './versioning';

/** Maven: pom.xml, Gradle lockfiles, build scripts and version catalogs; names are group:artifact. */
export const maven: EcosystemModule = {
  id: 'Maven',
  purlType: 'maven',
  osvEcosystem: 'Maven',
  normaliseName: normaliseMavenName,
  extractors: [
    gradleLockfileExtractor,
    pomExtractor,
    gradleScriptExtractor,
    gradleCatalogExtractor,
  ],
  versioning: mavenVersioning,
  registry: (settings) => mavenRegistry(maven, settings),
};

import { buildPurl } from '../purl';

/** Packagist names are case-insensitive; Composer stores and compares them lowercased. */
export function normaliseComposerName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Platform packages (`php`, `ext-json`, `lib-icu`, `composer-plugin-api`, ...) are provided by
 * the PHP runtime, not installed from a registry: Composer's PlatformRepository pattern.
 */
const PLATFORM =
  /^(?:php(?:-64bit|-ipv6|-zts|-debug)?|hhvm|(?:ext|lib)-[a-z0-9]+(?:[_.-][a-z0-9]+)*|composer(?:-(?:plugin|runtime)-api)?)$/i;

export function isPlatformPackage(name: string): boolean {
  return PLATFORM.test(name.trim());
}

/**
 * `vendor/package`, each part made of the characters Packagist allows. Separators are required
 * between runs (`[a-z0-9]+(?:-[a-z0-9]+)*`) so the pattern cannot backtrack exponentially.
 */
export function isValidPackageName(name: string): boolean {
  return /^[a-z0-9]+(?:[_.-][a-z0-9]+)*\/[a-z0-9]+(?:(?:[_.]|-{1,2})[a-z0-9]+)*$/.test(name);
}

export function composerPurl(name: string, version: string | null): string {
  return buildPurl('composer', name, version);
}

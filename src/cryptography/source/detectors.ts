/**
 * The source detectors, one per language, and which file extensions each reads. The scan
 * (scan.ts) dispatches every first-party file to the detector of its extension.
 */
import { csharpDetector } from './csharp/detector.js';
import { goDetector } from './go/detector.js';
import { javaDetector } from './java/detector.js';
import { javascriptDetector } from './javascript/detector.js';
import { phpDetector } from './php/detector.js';
import { pythonDetector } from './python/detector.js';
import { rubyDetector } from './ruby/detector.js';
import { rustDetector } from './rust/detector.js';
import type { LanguageDetector } from './types.js';

export const SOURCE_DETECTORS: readonly LanguageDetector[] = [
  javascriptDetector,
  pythonDetector,
  goDetector,
  javaDetector,
  csharpDetector,
  rustDetector,
  rubyDetector,
  phpDetector,
];

/** Extension (lower case, with the dot) to detector; the first detector listing one wins. */
export function detectorsByExtension(
  detectors: readonly LanguageDetector[] = SOURCE_DETECTORS,
): ReadonlyMap<string, LanguageDetector> {
  const byExtension = new Map<string, LanguageDetector>();
  for (const detector of detectors) {
    for (const extension of detector.extensions) {
      const key = extension.toLowerCase();
      if (!byExtension.has(key)) byExtension.set(key, detector);
    }
  }
  return byExtension;
}

const DEFAULT_BY_EXTENSION = detectorsByExtension();

/** The detector that reads a file, by its extension; undefined for files no detector reads. */
export function detectorFor(path: string): LanguageDetector | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return DEFAULT_BY_EXTENSION.get(path.slice(dot).toLowerCase());
}

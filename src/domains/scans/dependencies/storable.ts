import { isStorableText } from '../../../core/storable-text';
import type { ExtractedFile } from '../../../ecosystems/extract-tree';
import type { ExtractedDependency } from '../../../ecosystems/types';

/**
 * Text PostgreSQL cannot store: NUL (also as the JSON escape `\u0000`, which survives into a
 * parsed string) and unpaired UTF-16 surrogates. A file's bytes are checked when it is read;
 * this checks what its parser made of them before anything is written.
 */
function storable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (value === null || typeof value !== 'object') return true;
  // Extractor output is shallow; a deeper value is not ours to walk.
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.every((item) => storable(item, depth + 1));
  return Object.entries(value).every(
    ([key, item]) => storable(key, depth + 1) && storable(item, depth + 1),
  );
}

function entryStorable(dependency: ExtractedDependency): boolean {
  return storable(dependency);
}

/**
 * Drops the entries of each file that carry unstorable text, with one error per file naming how
 * many (the file's other entries are kept). Files without such entries are returned as they are.
 */
export function storableFiles(files: readonly ExtractedFile[]): ExtractedFile[] {
  return files.map((file) => {
    const kept = file.dependencies.filter(entryStorable);
    const dropped = file.dependencies.length - kept.length;
    if (dropped === 0) return file;
    return {
      ...file,
      dependencies: kept,
      errors: [
        ...file.errors,
        {
          line: file.dependencies.find((d) => !entryStorable(d))?.line ?? null,
          message: `${dropped} ${dropped === 1 ? 'entry' : 'entries'} skipped: text that cannot be stored (NUL or an unpaired surrogate)`,
        },
      ],
    };
  });
}

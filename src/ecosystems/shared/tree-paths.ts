/**
 * Paths inside a scanned tree: root-relative, forward slashes, never escaping the root. Shared by
 * every extractor that follows an include, a parent or a sibling through `readFile`.
 */

/** Directory part of a root-relative path (`''` for a file at the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** File name of a root-relative path (the whole path for a file at the root). */
export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The file `name` in the same directory as `path` (a lockfile's manifest, and the like). */
export function siblingOf(path: string, name: string): string {
  return inDir(dirOf(path), name);
}

/** `file` inside `dir` (`dir` may be the root, `''`). */
export function inDir(dir: string, file: string): string {
  return dir.length > 0 ? `${dir}/${file}` : file;
}

/**
 * Joins a relative reference onto a root-relative directory, resolving `.` and `..` lexically.
 * Null for absolute paths, URLs and anything that climbs above the scanned root.
 */
export function joinInTree(dir: string, ref: string): string | null {
  if (ref.startsWith('/') || /^[A-Za-z]:[\\/]/.test(ref) || /^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    return null;
  }
  const parts: string[] = dir === '' ? [] : dir.split('/');
  for (const part of ref.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.join('/');
}

/** The directory chain from `dir` up to the root: `a/b` → [`a/b`, `a`, ``]. */
export function ancestorDirs(dir: string): string[] {
  const out = [dir];
  let current = dir;
  while (current.length > 0) {
    current = dirOf(current);
    out.push(current);
  }
  return out;
}

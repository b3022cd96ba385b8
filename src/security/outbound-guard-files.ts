import { mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OutboundRefusedError } from './outbound-guard';
import { TENANT_PLACEHOLDER, tenantRoots } from './tenant-roots';

/**
 * `file://` clone URLs (docs/outbound-guard.md): a repository must lie strictly below one of
 * the operator's root directories after every link is followed (`realpath`), must be a git
 * repository itself (no `.git` file pointing elsewhere, no alternates outside the roots), and
 * git is handed the resolved path, so a link swapped later changes nothing for this clone.
 * Called at import and again before every clone. A root naming `{tenantId}` (the default,
 * `DATA_DIR/repositories/{tenantId}`) is that tenant's alone; a root without it is shared by
 * every tenant, which only an operator's setting makes.
 */
function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

async function realRoots(roots: readonly string[], tenantId: string | null): Promise<string[]> {
  const out: string[] = [];
  for (const named of tenantRoots(roots, tenantId)) {
    try {
      out.push(await realpath(named));
    } catch {
      // A root that does not exist (yet) holds no repositories.
    }
  }
  return out;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The repository's git directory: itself when bare, its `.git` directory otherwise. */
async function gitDirectoryOf(path: string): Promise<string> {
  if ((await isDirectory(join(path, 'objects'))) && (await isDirectory(join(path, 'refs')))) {
    return path;
  }
  const dotGit = join(path, '.git');
  if (await isDirectory(dotGit)) return dotGit;
  throw new OutboundRefusedError(`${path} is not a git repository (or .git is a link file)`);
}

/** Alternates let git read objects of another repository: they must stay inside the roots. */
async function checkAlternates(gitDir: string, roots: string[]): Promise<void> {
  let text: string;
  try {
    text = await readFile(join(gitDir, 'objects', 'info', 'alternates'), 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    let target: string;
    try {
      target = await realpath(resolve(join(gitDir, 'objects'), line));
    } catch {
      throw new OutboundRefusedError(`${gitDir} has an unreadable alternate`);
    }
    if (!roots.some((root) => inside(root, target))) {
      throw new OutboundRefusedError(`${gitDir} borrows objects from outside the roots`);
    }
  }
}

/**
 * A `file://` repository whose folder is gone, below the caller's own root: the tenant may be
 * told so, as it names nothing outside what it may read anyway.
 */
export class FileRepositoryGoneError extends Error {
  constructor(readonly path: string) {
    super('the repository no longer exists: its folder was moved or deleted');
    this.name = 'FileRepositoryGoneError';
  }
}

/**
 * The nearest existing ancestor of a missing path, resolved: whether it lies in a root decides
 * whether "gone" may be said. Lexical checks alone would let a link inside a root probe paths
 * outside it.
 */
async function existingAncestor(path: string): Promise<string | null> {
  for (let at = resolve(path); ; ) {
    try {
      return await realpath(at);
    } catch {
      const parent = resolve(at, '..');
      if (parent === at) return null;
      at = parent;
    }
  }
}

/**
 * Checks a `file://` URL against the roots; returns the `file://` URL of the resolved path for
 * git. Throws OutboundRefusedError (callers say only that the repository is not allowed), or
 * FileRepositoryGoneError for a missing folder inside the roots.
 */
export async function checkFileRepository(
  url: string,
  roots: readonly string[],
  tenantId: string | null,
): Promise<string> {
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    throw new OutboundRefusedError('unreadable file URL');
  }
  let real: string;
  const allowed = await realRoots(roots, tenantId);
  try {
    real = await realpath(resolve(path));
  } catch {
    const ancestor = await existingAncestor(path);
    const mine = ancestor !== null && allowed.some((r) => r === ancestor || inside(r, ancestor));
    if (mine) throw new FileRepositoryGoneError(path);
    throw new OutboundRefusedError(`${path} does not exist`);
  }
  if (!allowed.some((root) => inside(root, real))) {
    throw new OutboundRefusedError(`${real} is not below a file URL root`);
  }
  await checkAlternates(await gitDirectoryOf(real), allowed);
  return pathToFileURL(real).href;
}

/**
 * Creates the roots when file:// is on: a shared root itself, a tenant's root up to the folder
 * that holds the tenant folders (`DATA_DIR/repositories` by default); the operator creates a
 * tenant's own folder when putting its first repository there.
 */
export async function createFileRoots(scans: {
  allowFileUrls: boolean;
  fileUrlRoots: readonly string[];
}): Promise<void> {
  if (!scans.allowFileUrls) return;
  for (const root of scans.fileUrlRoots) {
    const at = root.indexOf(TENANT_PLACEHOLDER);
    const fixed = at === -1 ? root : root.slice(0, root.lastIndexOf(sep, at));
    if (fixed) await mkdir(fixed, { recursive: true, mode: 0o750 });
  }
}

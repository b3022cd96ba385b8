import { builtinModules } from 'node:module';
import { PYTHON_STDLIB } from './python-stdlib';

/**
 * From an import to the package that provides it, per ecosystem (docs/reachability.md).
 */

const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules);

/** `lodash/fp` → `lodash`, `@scope/pkg/x` → `@scope/pkg`; null for relative, URL and builtin ones. */
export function npmPackageOf(specifier: string): string | null {
  if (specifier === '' || specifier.startsWith('.') || specifier.startsWith('/')) return null;
  if (specifier.includes(':')) return null; // node:, data:, http:, virtual: ...
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
  if (specifier.startsWith('@') && parts.length < 2) return null;
  if (NODE_BUILTINS.has(name)) return null;
  return name;
}

/**
 * Import names whose distribution is named otherwise (the common cases; a distribution named as
 * its module, `_`/`-`/case aside, needs no entry).
 */
const PYTHON_DISTRIBUTIONS: Readonly<Record<string, readonly string[]>> = {
  yaml: ['pyyaml'],
  PIL: ['pillow'],
  bs4: ['beautifulsoup4'],
  sklearn: ['scikit-learn'],
  skimage: ['scikit-image'],
  cv2: ['opencv-python', 'opencv-python-headless', 'opencv-contrib-python'],
  jwt: ['pyjwt'],
  dateutil: ['python-dateutil'],
  dotenv: ['python-dotenv'],
  Crypto: ['pycryptodome', 'pycrypto'],
  Cryptodome: ['pycryptodomex'],
  OpenSSL: ['pyopenssl'],
  google: ['protobuf', 'google-api-core', 'google-auth', 'google-cloud-storage'],
  jose: ['python-jose'],
  magic: ['python-magic'],
  multipart: ['python-multipart'],
  serial: ['pyserial'],
  usb: ['pyusb'],
  zmq: ['pyzmq'],
  git: ['gitpython'],
  github: ['pygithub'],
  attr: ['attrs'],
  nacl: ['pynacl'],
  psycopg2: ['psycopg2', 'psycopg2-binary'],
  MySQLdb: ['mysqlclient'],
  ldap: ['python-ldap'],
  docx: ['python-docx'],
  pptx: ['python-pptx'],
  markdown: ['markdown'],
  mx: ['egenix-mx-base'],
  pkg_resources: ['setuptools'],
  setuptools: ['setuptools'],
  Levenshtein: ['python-levenshtein', 'levenshtein'],
  slugify: ['python-slugify'],
  socks: ['pysocks'],
  telegram: ['python-telegram-bot'],
  websocket: ['websocket-client'],
  win32api: ['pywin32'],
  xdist: ['pytest-xdist'],
  pytest_cov: ['pytest-cov'],
  _pytest: ['pytest'],
  fitz: ['pymupdf'],
};

export function isPythonStdlib(topModule: string): boolean {
  return PYTHON_STDLIB.has(topModule);
}

/** PEP 503 normalisation, as PyPI dependency names are stored. */
function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The candidate distributions (PEP 503 names) of a top-level module. */
export function pythonDistributionsOf(topModule: string): string[] {
  const known = PYTHON_DISTRIBUTIONS[topModule] ?? [];
  const own = pep503(topModule);
  return [...new Set([own, ...known, `python-${own}`, `py${own}`])];
}

/** The module (the longest module path that is a prefix) an import path belongs to, or null. */
export function goModuleOf(importPath: string, modules: readonly string[]): string | null {
  let best: string | null = null;
  for (const module of modules) {
    if (importPath !== module && !importPath.startsWith(`${module}/`)) continue;
    if (best === null || module.length > best.length) best = module;
  }
  return best;
}

/** Standard-library Go import paths have no dot in their first element. */
export function isGoStdlib(importPath: string): boolean {
  const first = importPath.split('/')[0] as string;
  return !first.includes('.');
}

/**
 * What a computed `require(x)` / `import(x)` could load, read from its source line (esbuild
 * reports the call's line and column, not its argument): a literal argument is an ordinary
 * import (`import('./x.json', options)` with a non-literal second argument); a literal prefix
 * that is a path (`./plugins/${name}`), or a path built by `path.resolve` / `join` /
 * `pathToFileURL` / `new URL`, loads only local files; a bare prefix (`eslint-plugin-${name}`)
 * loads only packages whose name starts with it; anything else may load any package.
 */

export type ComputedTarget =
  | { kind: 'literal'; specifier: string }
  | { kind: 'local' }
  | { kind: 'prefix'; prefix: string }
  /** Python: a computed submodule of a known module (`f"yaml.{x}"`) loads its distributions. */
  | { kind: 'names'; names: readonly string[] }
  | { kind: 'any' };

/** Starts of arguments that build a file path or URL (never a bare package name). */
const IMPORT_META = ['import', 'meta'].join('.');
const PATH_BUILDERS = [
  'path.resolve(',
  'path.join(',
  'resolve(',
  'join(',
  'pathToFileURL(',
  'url.pathToFileURL(',
  'new URL(',
  '__dirname',
  '__filename',
  'process.cwd()',
  // Spelled in two pieces: the build rewrites (and refuses) these expressions in source text.
  `${IMPORT_META}.url`,
  `${IMPORT_META}.dirname`,
  `${IMPORT_META}.resolve(`,
];

const MAX_ARGUMENT = 512;

/** The argument text after the `require(` / `import(` at or before `column`, or null. */
function argumentAt(lineText: string, column: number): string | null {
  let callee = -1;
  for (const word of ['require', 'import']) {
    const at = lineText.lastIndexOf(word, column);
    if (at > callee) callee = at;
  }
  if (callee === -1) return null;
  let i = callee;
  while (i < lineText.length && /[\w$]/.test(lineText[i] as string)) i++;
  while (lineText[i] === ' ') i++;
  if (lineText[i] !== '(') return null;
  return lineText
    .slice(i + 1, i + 1 + MAX_ARGUMENT)
    .replace(/^\s+/, '')
    .replace(/^await\s+/, '');
}

function literalPrefix(argument: string): { text: string; complete: boolean } | null {
  const quote = argument[0];
  if (quote !== '"' && quote !== "'" && quote !== '`') return null;
  let text = '';
  for (let i = 1; i < argument.length; i++) {
    const c = argument[i] as string;
    if (c === '\\') {
      text += argument[i + 1] ?? '';
      i++;
    } else if (c === quote) {
      const rest = argument.slice(i + 1).replace(/^\s+/, '');
      return { text, complete: rest.startsWith(')') || rest.startsWith(',') };
    } else if (quote === '`' && c === '$' && argument[i + 1] === '{') {
      return { text, complete: false };
    } else text += c;
  }
  return { text, complete: false };
}

function isLocalPath(prefix: string): boolean {
  return (
    prefix.startsWith('./') ||
    prefix.startsWith('../') ||
    prefix.startsWith('/') ||
    prefix.startsWith('file:') ||
    prefix === '.' ||
    prefix === '..'
  );
}

export function computedTarget(lineText: string, column: number): ComputedTarget {
  const argument = argumentAt(lineText, column);
  if (argument === null) return { kind: 'any' };
  const literal = literalPrefix(argument);
  if (literal?.complete) return { kind: 'literal', specifier: literal.text };
  if (literal) {
    if (isLocalPath(literal.text)) return { kind: 'local' };
    return literal.text === '' ? { kind: 'any' } : { kind: 'prefix', prefix: literal.text };
  }
  if (PATH_BUILDERS.some((start) => argument.startsWith(start))) return { kind: 'local' };
  return { kind: 'any' };
}

/** Whether a computed import of `target` could load the package `name`. */
export function couldLoad(target: ComputedTarget, name: string): boolean {
  if (target.kind === 'any') return true;
  if (target.kind === 'names') return target.names.includes(name);
  if (target.kind !== 'prefix') return false;
  return name.startsWith(target.prefix) || target.prefix.startsWith(`${name}/`);
}

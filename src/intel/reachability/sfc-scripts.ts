import { jsTokens } from './js-tokens';

/**
 * The script blocks of single-file components: `.vue` (`<script>`, `<script setup>`),
 * `.svelte` (instance and module scripts) and `.astro` (the `---` frontmatter and `<script>`
 * tags). Each block's text keeps its lines (the lines before it are blank), so that esbuild's
 * line numbers are the file's. One linear scan: HTML comments are skipped, an unterminated tag or
 * block ends the scan.
 */

export type SfcKind = 'vue' | 'svelte' | 'astro';
export type ScriptLoader = 'jsx' | 'ts' | 'tsx';

export interface ScriptBlock {
  contents: string;
  loader: ScriptLoader;
}

export const SFC_EXTENSIONS: ReadonlyMap<string, SfcKind> = new Map([
  ['.vue', 'vue'],
  ['.svelte', 'svelte'],
  ['.astro', 'astro'],
]);

/** `type` values of scripts that hold JavaScript (any other, e.g. JSON-LD, is data). */
const SCRIPT_TYPES: ReadonlySet<string> = new Set([
  '',
  'module',
  'text/javascript',
  'application/javascript',
  'text/typescript',
  'application/typescript',
]);

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < tag.length) {
    while (i < tag.length && /[\s/]/.test(tag[i] as string)) i++;
    const nameStart = i;
    while (i < tag.length && !/[\s=/]/.test(tag[i] as string)) i++;
    const name = tag.slice(nameStart, i).toLowerCase();
    let value = '';
    if (tag[i] === '=') {
      i++;
      const quote = tag[i];
      if (quote === '"' || quote === "'") {
        const end = tag.indexOf(quote, i + 1);
        value = tag.slice(i + 1, end === -1 ? tag.length : end);
        i = end === -1 ? tag.length : end + 1;
      } else {
        const valueStart = i;
        while (i < tag.length && !/\s/.test(tag[i] as string)) i++;
        value = tag.slice(valueStart, i);
      }
    }
    if (name !== '') out.set(name, value);
    if (i === nameStart) i++;
  }
  return out;
}

function loaderOf(lang: string | undefined, kind: SfcKind): ScriptLoader {
  if (lang === 'ts' || lang === 'typescript') return 'ts';
  if (lang === 'tsx') return 'tsx';
  // Astro scripts are TypeScript whatever they say.
  return kind === 'astro' ? 'ts' : 'jsx';
}

/**
 * Astro frontmatter may `return` (a redirect) at its top level, which a module may not: such a
 * `return` becomes `;;;;;;` (same length, same lines), which changes no import.
 */
function withoutTopLevelReturn(text: string): string {
  let depth = 0;
  const pieces: string[] = [];
  let from = 0;
  for (const token of jsTokens(text)) {
    if (token.kind === 'punct' && token.value === '{') depth++;
    else if (token.kind === 'punct' && token.value === '}') depth = Math.max(0, depth - 1);
    else if (token.kind === 'name' && token.value === 'return' && depth === 0) {
      pieces.push(text.slice(from, token.start), ';;;;;;');
      from = token.start + 6;
    }
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The frontmatter of an `.astro` file: from a first line `---` to the next line `---`. */
function astroFrontmatter(text: string): { block: ScriptBlock; end: number } | null {
  const first = text.replace(/^\uFEFF/, '').trimStart();
  if (!first.startsWith('---')) return null;
  const open = text.indexOf('---');
  const bodyStart = text.indexOf('\n', open);
  if (bodyStart === -1) return null;
  const close = text.indexOf('\n---', bodyStart);
  const end = close === -1 ? text.length : close;
  const padding = '\n'.repeat(countLines(text, 0, bodyStart));
  const contents = `${padding}${withoutTopLevelReturn(text.slice(bodyStart, end))}`;
  return { block: { contents, loader: 'ts' }, end };
}

export function scriptBlocks(text: string, kind: SfcKind): ScriptBlock[] {
  const blocks: ScriptBlock[] = [];
  const lower = text.toLowerCase();
  let i = 0;
  let lines = 0; // newlines before `i`
  const advance = (to: number) => {
    lines += countLines(text, i, to);
    i = to;
  };
  if (kind === 'astro') {
    const front = astroFrontmatter(text);
    if (front) {
      blocks.push(front.block);
      advance(front.end);
    }
  }
  while (i < text.length) {
    const open = lower.indexOf('<', i);
    if (open === -1) break;
    if (lower.startsWith('<!--', open)) {
      const end = lower.indexOf('-->', open + 4);
      if (end === -1) break;
      advance(end + 3);
      continue;
    }
    const after = lower[open + 7];
    if (!lower.startsWith('<script', open) || (after !== undefined && !/[\s>/]/.test(after))) {
      advance(open + 1);
      continue;
    }
    const tagEnd = tagEndOf(text, open + 7);
    if (tagEnd === -1) break;
    const attrs = attributes(text.slice(open + 7, tagEnd));
    const selfClosing = text[tagEnd - 1] === '/';
    const close = selfClosing ? tagEnd : lower.indexOf('</script', tagEnd + 1);
    if (close === -1) break;
    const javascript = SCRIPT_TYPES.has((attrs.get('type') ?? '').toLowerCase());
    // Inline Astro scripts and `src=` scripts are not bundled: their imports load no package.
    const bundled = !attrs.has('src') && !(kind === 'astro' && attrs.has('is:inline'));
    advance(tagEnd + 1);
    if (!selfClosing && javascript && bundled) {
      const contents = `${'\n'.repeat(lines)}${text.slice(tagEnd + 1, close)}`;
      blocks.push({ contents, loader: loaderOf(attrs.get('lang'), kind) });
    }
    advance(Math.max(close, i));
  }
  return blocks;
}

/** The `>` ending a start tag, skipping quoted attribute values; -1 when unterminated. */
function tagEndOf(text: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** The `lang` of each `<style>` block (`scss`, `less`...): the preprocessor the build runs. */
export function styleLanguages(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const open = lower.indexOf('<style', i);
    if (open === -1) return out;
    const tagEnd = tagEndOf(text, open + 6);
    if (tagEnd === -1) return out;
    const lang = attributes(text.slice(open + 6, tagEnd)).get('lang');
    if (lang) out.push(lang.toLowerCase());
    i = tagEnd + 1;
  }
}

import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { dedupe, type ImageRef, imageDependency, parseSubstitutedRef } from './image-ref';
import { substitute, UNRESOLVED } from './substitute';

/**
 * Dockerfile / Containerfile base images.
 *
 * - `FROM [--platform=…] <image> [AS <stage>]`; a later `FROM <stage>` or `COPY --from=<stage>`
 *   refers to an earlier stage, not to an image. `FROM scratch` is no image.
 * - `COPY --from=<image>` pulls an image too: it is a dependency (scope `build`).
 * - Only ARGs declared before the first FROM can be used in FROM lines (Docker's rule); their
 *   defaults are substituted. An ARG without a default is unknown: in the tag it leaves the
 *   image unpinned, in the name it makes the line unreadable (reported, skipped).
 * - The image the final stage is built on (following `FROM <stage>` chains) is `runtime`;
 *   images used only by other stages are `build`. The last stage counts as final, as it does
 *   when `docker build` gets no `--target`.
 * - Line continuations (with the `# escape=` directive honoured), comment lines inside them,
 *   and heredoc bodies (`RUN <<EOF … EOF`) are handled so text inside them is never an
 *   instruction.
 * Not read: `RUN --mount=from=<image>` and the `# syntax=` frontend image.
 */

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

const HEREDOC = /<<(-?)(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/g;

/** Logical instructions with the line they start on. */
export function readInstructions(text: string): { escape: string; instructions: Instruction[] } {
  const lines = text.split(/\r?\n/);
  let escapeChar = '\\';
  let i = 0;
  // Parser directives: only at the very top, before any blank line, comment or instruction.
  for (; i < lines.length; i++) {
    const directive = /^#\s*([A-Za-z][\w-]*)\s*=\s*(\S+)\s*$/.exec(lines[i]!);
    if (!directive) break;
    if (
      directive[1]!.toLowerCase() === 'escape' &&
      (directive[2] === '`' || directive[2] === '\\')
    ) {
      escapeChar = directive[2];
    }
  }
  i = 0;
  const out: Instruction[] = [];
  while (i < lines.length) {
    const first = lines[i]!;
    const trimmed = first.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      i++;
      continue;
    }
    const start = i + 1;
    let buffer = '';
    // Join continuation lines; comment and empty lines inside a continuation are dropped.
    while (i < lines.length) {
      const line = lines[i]!;
      i++;
      if (buffer !== '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
      const end = line.trimEnd();
      if (end.endsWith(escapeChar)) {
        buffer += `${end.slice(0, -1)} `;
        continue;
      }
      buffer += line;
      break;
    }
    const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(buffer);
    if (!m) continue;
    const keyword = m[1]!.toUpperCase();
    out.push({ keyword, args: m[2]!.trim(), line: start });
    if (keyword === 'RUN' || keyword === 'COPY' || keyword === 'ADD') {
      for (const doc of buffer.matchAll(HEREDOC)) {
        const stripTabs = doc[1] === '-';
        const delimiter = doc[3]!;
        while (i < lines.length) {
          const body = lines[i]!;
          i++;
          if ((stripTabs ? body.replace(/^\t+/, '') : body) === delimiter) break;
        }
      }
    }
  }
  return { escape: escapeChar, instructions: out };
}

/** Splits on whitespace outside quotes; quotes are removed. */
function words(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  let has = false;
  for (const c of text) {
    if (quote !== null) {
      if (c === quote) quote = null;
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(current);
      current = '';
      has = false;
    } else {
      current += c;
      has = true;
    }
  }
  if (has) out.push(current);
  return out;
}

type Base = { kind: 'image'; index: number } | { kind: 'stage'; stage: number } | { kind: 'none' };

export function extractDockerfile(input: ExtractInput): ExtractionResult {
  const { escape: escapeChar, instructions } = readInstructions(input.text);
  const errors: ExtractionError[] = [];
  const images: Array<{ ref: ImageRef; line: number }> = [];
  const stages: Array<{ alias: string | null; base: Base }> = [];
  const globalArgs = new Map<string, string | undefined>();
  const lookup = (name: string) => globalArgs.get(name);

  /** Resolves an image text; records an error and returns null when it cannot. */
  const readImage = (raw: string, line: number, what: string): ImageRef | null => {
    const ref = parseSubstitutedRef(substitute(raw, lookup, { escape: escapeChar }), UNRESOLVED);
    if (ref === 'unknown-name') {
      errors.push({
        line,
        message: `${what} ${raw}: the image name uses an ARG without a default: skipped`,
      });
      return null;
    }
    if (ref === null)
      errors.push({ line, message: `${what} ${raw}: not an image reference: skipped` });
    return ref;
  };

  const stageIndex = (name: string): number =>
    stages.findIndex((s) => s.alias !== null && s.alias === name.toLowerCase());

  for (const { keyword, args, line } of instructions) {
    if (keyword === 'ARG' && stages.length === 0) {
      for (const word of words(args)) {
        const eq = word.indexOf('=');
        if (eq < 0) globalArgs.set(word, globalArgs.get(word));
        else
          globalArgs.set(
            word.slice(0, eq),
            substitute(word.slice(eq + 1), lookup, { escape: escapeChar }),
          );
      }
    } else if (keyword === 'FROM') {
      const tokens = words(args).filter((t) => !t.startsWith('--'));
      const raw = tokens[0];
      const alias =
        tokens.length === 3 && tokens[1]!.toLowerCase() === 'as' ? tokens[2]!.toLowerCase() : null;
      let base: Base = { kind: 'none' };
      if (raw === undefined) {
        errors.push({ line, message: 'FROM without an image: skipped' });
      } else if (tokens.length !== 1 && alias === null) {
        // Docker accepts `FROM image` or `FROM image AS name` only.
        errors.push({ line, message: `FROM ${args}: expected "FROM image [AS name]": skipped` });
      } else {
        const expanded = substitute(raw, lookup, { escape: escapeChar });
        const stage = stageIndex(expanded);
        if (stage >= 0) base = { kind: 'stage', stage };
        else if (expanded.toLowerCase() !== 'scratch') {
          const ref = readImage(raw, line, 'FROM');
          if (ref !== null) {
            images.push({ ref, line });
            base = { kind: 'image', index: images.length - 1 };
          }
        }
      }
      stages.push({ alias, base });
    } else if (keyword === 'COPY' || keyword === 'ADD') {
      for (const token of words(args)) {
        if (!token.startsWith('--from=')) continue;
        const raw = token.slice('--from='.length);
        const expanded = substitute(raw, lookup, { escape: escapeChar });
        if (/^\d+$/.test(expanded) || stageIndex(expanded) >= 0) continue;
        const ref = readImage(raw, line, 'COPY --from');
        if (ref !== null) images.push({ ref, line });
      }
    }
  }

  // The final stage's base image, following stage-to-stage references back to an image.
  const runtime = new Set<number>();
  let stage = stages[stages.length - 1];
  for (let hops = 0; stage !== undefined && hops <= stages.length; hops++) {
    if (stage.base.kind === 'image') runtime.add(stage.base.index);
    if (stage.base.kind !== 'stage') break;
    stage = stages[stage.base.stage];
  }

  const dependencies: ExtractedDependency[] = images.map(({ ref, line }, index) => {
    const scope: DependencyScope = runtime.has(index) ? 'runtime' : 'build';
    return imageDependency(ref, scope, line);
  });
  return { dependencies: dedupe(dependencies), errors };
}

/** Dockerfile, Containerfile, `*.Dockerfile`, `Dockerfile.*` (but not `Dockerfile.dockerignore`). */
export function isDockerfilePath(path: string): boolean {
  const base = baseOf(path);
  if (/\.dockerignore$/i.test(base)) return false;
  return (
    /^(?:dockerfile|containerfile)(?:\.[\w.-]+)?$/i.test(base) ||
    /\.(?:dockerfile|containerfile)$/i.test(base)
  );
}

export const dockerfileExtractor: Extractor = {
  name: 'docker/dockerfile',
  version: 1,
  kind: 'manifest',
  matches: isDockerfilePath,
  extract: extractDockerfile,
  describe: (input) => (/containerfile/i.test(input.path) ? 'Containerfile' : 'Dockerfile'),
};

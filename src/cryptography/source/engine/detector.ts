/**
 * Every language's detector has the same shape: its file extensions, its grammar, the
 * prefilter the scan runs on raw text, and a read of the syntax tree through the engine.
 * Files too large to be first-party source, and trees a reader cannot walk (a tree too deep for
 * the stack), yield no uses rather than failing the scan.
 */
import { type Grammar, parserFor, type SyntaxNode, withSyntaxTree } from '../parser.js';
import type { LanguageDetector, SourceFileReport, SourceLanguage } from '../types.js';
import type { Prefilter } from './prefilter.js';
import { MAX_SOURCE_CHARS } from './syntax.js';

export type Parser = Awaited<ReturnType<typeof parserFor>>;

export interface DetectorSpec {
  language: SourceLanguage;
  extensions: readonly string[];
  /** The grammar a file is parsed with (one per language, or chosen by extension). */
  grammar: Grammar | ((path: string) => Grammar);
  /** The language a file's uses are reported under (TypeScript files of the JS detector). */
  languageOf?: (grammar: Grammar) => SourceLanguage;
  mayContain: Prefilter;
  /** Reads one parsed file; `parser` parses again what a reader needs (Rust macro bodies). */
  read(root: SyntaxNode, text: string, context: DetectContext): SourceFileReport;
}

export interface DetectContext {
  language: SourceLanguage;
  parser: Parser;
}

/** The report of a file with nothing found. */
export function emptyReport(): SourceFileReport {
  return { uses: [], algorithms: [] };
}

export function treeDetector(spec: DetectorSpec): LanguageDetector {
  const grammarOf = typeof spec.grammar === 'function' ? spec.grammar : () => spec.grammar;
  return {
    language: spec.language,
    extensions: spec.extensions,
    mayContain: spec.mayContain,
    async detect(path, text) {
      if (text.length > MAX_SOURCE_CHARS) return emptyReport();
      const grammar = grammarOf(path) as Grammar;
      const context = {
        language: spec.languageOf?.(grammar) ?? spec.language,
        parser: await parserFor(grammar),
      };
      try {
        return await withSyntaxTree(grammar, text, (tree) =>
          spec.read(tree.rootNode, text, context),
        );
      } catch {
        return emptyReport();
      }
    },
  };
}

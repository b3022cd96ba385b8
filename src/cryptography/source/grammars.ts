/**
 * The tree-sitter WebAssembly files the source detectors load (the runtime and one grammar per
 * language), found without loading the binding itself: the service's own thread never parses,
 * it only keeps these compiled for the inventory threads (src/domains/quantum/inventory-thread.ts).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type Grammar =
  | 'javascript'
  | 'typescript'
  | 'tsx'
  | 'python'
  | 'go'
  | 'java'
  | 'c-sharp'
  | 'rust'
  | 'ruby'
  | 'php';

/** Every grammar a detector parses with (detectors.ts). */
export const GRAMMARS: readonly Grammar[] = [
  'javascript',
  'typescript',
  'tsx',
  'python',
  'go',
  'java',
  'c-sharp',
  'rust',
  'ruby',
  'php',
];

const require = createRequire(import.meta.url);

/** The folder of @vscode/tree-sitter-wasm's WebAssembly files. */
export const WASM_FOLDER = dirname(require.resolve('@vscode/tree-sitter-wasm'));

export function grammarFile(grammar: Grammar): string {
  return join(WASM_FOLDER, `tree-sitter-${grammar}.wasm`);
}

/** The runtime's module and every grammar's, as paths. */
export function treeSitterFiles(): string[] {
  return [join(WASM_FOLDER, 'tree-sitter.wasm'), ...GRAMMARS.map(grammarFile)];
}

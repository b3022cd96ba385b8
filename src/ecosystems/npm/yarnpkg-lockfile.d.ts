// @yarnpkg/lockfile ships no types; this covers the one function the yarn v1 extractor calls
// (loaded through createRequire, see extract-yarn-lock.ts).
declare module '@yarnpkg/lockfile' {
  export interface ParseResult {
    /** `merge` = a merge conflict both sides of which parsed; `conflict` = they did not. */
    type: 'success' | 'merge' | 'conflict';
    object: Record<string, Record<string, unknown>>;
  }
  function parse(text: string, fileLoc?: string): ParseResult;
  const lockfile: { parse: typeof parse };
  export default lockfile;
}

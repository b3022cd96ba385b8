/** Ecosystem spellings of the specification (a leaf module: types.ts and registry-types.ts share it). */
export const ECOSYSTEMS = [
  'npm',
  'PyPI',
  'Maven',
  'Go',
  'Cargo',
  'RubyGems',
  'Composer',
  'NuGet',
  'Docker',
] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

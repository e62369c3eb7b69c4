// Types of layers.mjs, for the TypeScript that reads its table (test/readme.test.ts).
export interface Layer {
  name: string;
  folder: string;
  holds: string;
  forbidden: string[];
  forbiddenPackages: string[];
}
export const ROOT: string;
export const LAYERS: Layer[];
export function layerOf(file: string): Layer | undefined;
export function forbiddenImport(file: string, specifier: string): string | null;

/** Types of scripts/import-cycles.mjs, for tests/unit/import-cycles.test.ts. */

export interface ImportEdge {
  from: string;
  to: string;
  /** False when the compiler erases the import (type-only). */
  runtime: boolean;
  line: number;
}

export const ROOT: string;
export const FOLDERS: string[];
export function sourceFiles(root?: string, folders?: string[]): string[];
export function edgesOf(file: string, text: string, known: ReadonlySet<string>): ImportEdge[];
export function importGraph(root?: string, folders?: string[]): { files: string[]; edges: ImportEdge[] };
export function cycles(files: readonly string[], edges: readonly ImportEdge[]): string[][];
export function projectCycles(
  root?: string,
  folders?: string[],
): { files: string[]; edges: ImportEdge[]; runtime: string[][]; all: string[][] };
export function folderGraph(
  files: readonly string[],
  edges: readonly ImportEdge[],
): { files: string[]; edges: ImportEdge[] };
export function edgesWithin(component: readonly string[], edges: readonly ImportEdge[]): ImportEdge[];

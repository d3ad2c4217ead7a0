/**
 * The part of `qs` (Refine's query-string parser, which src/layout/router-provider.ts calls as
 * Refine does) this app uses; the package ships no types.
 */
declare module "qs" {
  interface ParseOptions {
    ignoreQueryPrefix?: boolean;
    depth?: number;
  }
  const qs: { parse(text: string, options?: ParseOptions): Record<string, unknown> };
  export default qs;
}

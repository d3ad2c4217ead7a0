/**
 * The build of bench/floor-app (the floor of `npm run bench:bundle`): Vite's defaults for a
 * React app, precompressed as the admin app's build is, served under /manage/floor/.
 * `FLOOR_OUT_DIR` is where it goes (the bench builds it into its copy of the admin build).
 */
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompressAssets } from "../../scripts/vite/precompress";

export default defineConfig({
  root: import.meta.dirname,
  base: "/manage/floor/",
  plugins: [react(), precompressAssets()],
  logLevel: "warn",
  build: {
    outDir: process.env.FLOOR_OUT_DIR ?? path.resolve(import.meta.dirname, "../../dist/floor"),
    emptyOutDir: true,
  },
});

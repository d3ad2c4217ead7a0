import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** Where the admin app is served; the server redirects `/` here. */
const BASE = "/manage/";
const API_ORIGIN = "http://127.0.0.1:8080";

/**
 * Stamps the build: `__BUILD_DATE__` in the code and `meta.json` `{ buildDateTime }` in the
 * output. The running app compares the two to force a hard reload after a deploy (spec §2).
 */
function buildMeta(): Plugin {
  const buildDateTime = new Date().toISOString();
  return {
    name: "atelier-build-meta",
    config: () => ({ define: { __BUILD_DATE__: JSON.stringify(buildDateTime) } }),
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "meta.json",
        source: `${JSON.stringify({ buildDateTime }, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig({
  base: BASE,
  plugins: [react(), buildMeta()],
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    // bench/bundle-size.mjs reads the manifest to find what the login route loads.
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: { input: { main: "index.html", viewer: "viewer.html" } },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": API_ORIGIN,
      "/clients": API_ORIGIN,
      "/meta.json": API_ORIGIN,
      // Live updates (socket.io: polling and the WebSocket upgrade).
      "/socket.io": { target: API_ORIGIN, ws: true },
    },
  },
});

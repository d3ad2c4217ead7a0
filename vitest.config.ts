import { defineConfig } from "vitest/config";
import LongFilesFirst from "./tests/server/sequencer";

export default defineConfig({
  test: {
    // The longest server files start first, also on a fresh clone (tests/server/sequencer.ts).
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "src/**/*.test.ts",
            "providers/**/*.test.ts",
            "schemas/**/*.test.ts",
            "resources/**/*.test.ts",
            "tests/unit/**/*.test.ts",
          ],
          environment: "node",
          // Pure functions mostly: sharing the module graph between files (no fresh one per
          // file) cuts the run from ~60 s to ~18 s. Stubs are undone after every test; a file
          // that imports modules under stubs resets them when it ends (http.browser.test.ts).
          isolate: false,
          // A cap for something stuck, not a timing check: the default 5 s is passed by the
          // schema sweeps of schemas/error-messages.test.ts (half a second each, quiet) on a
          // loaded machine, and by the unit run of the adding-a-resource copy beside a typecheck.
          testTimeout: 60_000,
          unstubGlobals: true,
          unstubEnvs: true,
          // Refine's router bindings use react-router's contexts: inlined, they share the one
          // react-router module the tests render with (src/layout/router-provider.test.ts).
          server: { deps: { inline: ["@refinedev/react-router"] } },
        },
      },
      {
        test: {
          name: "server",
          include: ["server/**/*.test.ts", "tests/server/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/server/global-setup.ts"],
          // Generous: the suite must pass on a loaded machine (npm run test:busy).
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
          // One module graph per worker, as the unit files have: a fresh one per file cost each
          // file the loading of the server's code again, 327 s of the workers' time in a
          // full run against 16 s without. Every file builds its own app, database and servers
          // through the harness; none may stub a module, a global or the clock, which would
          // reach the files after it (tests/unit/server-tests-shared.test.ts checks).
          isolate: false,
        },
      },
    ],
  },
});

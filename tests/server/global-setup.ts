/**
 * Global setup of the "server" vitest project: finds a PostgreSQL server for the
 * integration tests and hands its admin URL to every test file as `inject("pgUrl")`.
 *
 * 1. `TEST_DATABASE_URL` set → that server is used as is (nothing started, nothing stopped).
 * 2. PostgreSQL binaries installed (`PG_BIN`, else /usr/lib/postgresql/15/bin, else the newest
 *    /usr/lib/postgresql/<n>/bin) → a throwaway cluster (scripts/pg-cluster.ts) in a temp dir,
 *    trust auth, loopback only, a free port, fsync off; stopped and deleted in the teardown.
 * 3. Neither → `null`: tests run on PGlite only, and this setup says so.
 *
 * Each test file then creates its own database with `createTestDatabase()` (tests/server/pg.ts).
 */
import type { TestProject } from "vitest/node";
import { findPgBin, startPgCluster } from "../../scripts/pg-cluster";
import { startS3rver } from "./s3";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of a PostgreSQL server for tests, or null when only PGlite is available. */
    pgUrl: string | null;
    /** URL of the loopback S3-compatible server (s3rver) for the S3 storage driver. */
    s3Url: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = await startS3rver();
  console.log(`[server tests] S3: s3rver at ${s3.url}`);
  project.provide("s3Url", s3.url);
  const stopPg = await setupPostgres(project);
  return async () => {
    stopPg?.();
    await s3.stop();
  };
}

async function setupPostgres(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    console.log("[server tests] PostgreSQL: TEST_DATABASE_URL");
    project.provide("pgUrl", given);
    return undefined;
  }
  const bin = findPgBin();
  if (!bin) {
    console.warn(
      "[server tests] PostgreSQL: not available (no TEST_DATABASE_URL, no binaries under /usr/lib/postgresql) — running on PGlite only",
    );
    project.provide("pgUrl", null);
    return undefined;
  }
  const cluster = await startPgCluster(bin, {
    // Speed over durability: the cluster is deleted after the run.
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: 200 },
  });
  console.log(`[server tests] PostgreSQL: throwaway cluster from ${bin} at ${cluster.url}`);
  project.provide("pgUrl", cluster.url);
  return () => cluster.stop();
}

/**
 * A resumable PDF upload belongs to the user who started it, on PGlite and PostgreSQL:
 * anyone else (another user with the PDF module, an admin) gets the same 404 as for an
 * upload that does not exist, for its state, its chunks, complete and cancel, and nothing
 * changes; the owner's calls work. The owner is a database column, so any instance agrees.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

const CHUNK = 64 * 1024;
/** Bytes that sniff as a PDF (the first chunk must be one); processing may fail, that is fine. */
function fakePdf(size: number): Buffer {
  const file = Buffer.alloc(size, 0x20);
  file.write("%PDF-1.4\n", 0, "latin1");
  return file;
}

describe.each(DRIVERS)("resumable upload ownership on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    const make = async (name: string) => {
      const email = `${name}-${driver}@example.com`;
      const created = await s.api<{ id: string }>("POST", "/api/users", {
        token: admin,
        body: {
          first_name: name,
          last_name: "Uploader",
          email,
          password: "Sturdy-passw0rd!",
          role: 3,
          modules: [1],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const signedIn = await s.signIn(email, "Sturdy-passw0rd!");
      return { id: created.body.id, token: signedIn.accessToken };
    };
    alice = await make("alice");
    bob = await make("bob");
  });
  afterAll(() => s?.close());

  async function start(token: string, size = CHUNK + 100) {
    const res = await s.api<{ id: string; received: number[] }>("POST", "/api/pdfs/uploads", {
      token,
      body: { fileName: "owned.pdf", size, chunkSize: CHUNK, name: "Owned catalogue" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }

  async function putChunk(id: string, index: number, bytes: Buffer, token: string) {
    const res = await fetch(`${s.baseUrl}/api/pdfs/uploads/${id}/chunks/${index}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: new Uint8Array(bytes),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** Every way to touch an upload, as `token`: status, chunk, complete, cancel. */
  async function touchAll(id: string, token: string, file: Buffer) {
    return {
      status: await s.api("GET", `/api/pdfs/uploads/${id}`, { token }),
      chunk: await putChunk(id, 0, file.subarray(0, CHUNK), token),
      complete: await s.api("POST", `/api/pdfs/uploads/${id}/complete`, { token }),
      cancel: await s.api("DELETE", `/api/pdfs/uploads/${id}`, { token }),
    };
  }

  it("stores who started the upload", async () => {
    const id = await start(alice.token);
    const row = await s.database.db
      .selectFrom("pdf_uploads")
      .select("created_by")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe(alice.id);
  });

  it("answers anyone else exactly as for an unknown upload, and changes nothing", async () => {
    const file = fakePdf(CHUNK + 100);
    const id = await start(alice.token);
    expect((await putChunk(id, 1, file.subarray(CHUNK), alice.token)).status).toBe(200);

    const unknown = await touchAll("00000000-0000-4000-8000-000000000000", bob.token, file);
    for (const token of [bob.token, admin]) {
      const other = await touchAll(id, token, file);
      for (const key of ["status", "chunk", "complete", "cancel"] as const) {
        expect(other[key].status, key).toBe(404);
        expect(other[key].body, key).toEqual(unknown[key].body);
      }
    }

    // Untouched: only the owner's chunk is there, the upload still exists, no PDF was made.
    const state = await s.api<{ received: number[] }>("GET", `/api/pdfs/uploads/${id}`, {
      token: alice.token,
    });
    expect(state.status).toBe(200);
    expect(state.body.received).toEqual([1]);
    const pdfs = await s.database.db
      .selectFrom("pdfs")
      .select("id")
      .where("name", "=", "Owned catalogue")
      .execute();
    expect(pdfs).toEqual([]);
  });

  it("lets the owner send chunks, read the state, complete and cancel", async () => {
    const file = fakePdf(CHUNK + 100);
    const id = await start(alice.token);
    expect((await putChunk(id, 0, file.subarray(0, CHUNK), alice.token)).status).toBe(200);
    expect((await putChunk(id, 1, file.subarray(CHUNK), alice.token)).status).toBe(200);
    const state = await s.api<{ received: number[] }>("GET", `/api/pdfs/uploads/${id}`, {
      token: alice.token,
    });
    expect(state.body.received).toEqual([0, 1]);
    const done = await s.api<{ id: string; name: string }>("POST", `/api/pdfs/uploads/${id}/complete`, {
      token: alice.token,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.name).toBe("Owned catalogue");
    expect((await s.api("GET", `/api/pdfs/uploads/${id}`, { token: alice.token })).status).toBe(404);

    const cancelled = await start(alice.token);
    expect((await s.api("DELETE", `/api/pdfs/uploads/${cancelled}`, { token: alice.token })).status).toBe(
      204,
    );
    expect((await s.api("GET", `/api/pdfs/uploads/${cancelled}`, { token: alice.token })).status).toBe(404);
  });

  it("keeps two users' uploads apart: each sees only their own", async () => {
    const mine = await start(alice.token);
    const theirs = await start(bob.token);
    expect((await s.api("GET", `/api/pdfs/uploads/${theirs}`, { token: bob.token })).status).toBe(200);
    expect((await s.api("GET", `/api/pdfs/uploads/${theirs}`, { token: alice.token })).status).toBe(404);
    expect((await s.api("GET", `/api/pdfs/uploads/${mine}`, { token: bob.token })).status).toBe(404);
    expect((await s.api("DELETE", `/api/pdfs/uploads/${theirs}`, { token: bob.token })).status).toBe(204);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db";
import { createSecretBox, loadSecretBox, SecretBoxError } from "./secret-box";

const KEY = "a-key-of-at-least-thirty-two-characters!";
const OTHER = "another-key-of-at-least-thirty-two-chars";
const WHERE = "crm_calendar_connections.password:user-1";

describe("createSecretBox", () => {
  const box = createSecretBox([KEY]);

  it("opens what it sealed, and the sealed text shows nothing of the secret", () => {
    const sealed = box.seal("app-password ünïcode", WHERE);
    expect(sealed).toMatch(/^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]+$/);
    expect(sealed).not.toContain("app-password");
    expect(box.open(sealed, WHERE)).toBe("app-password ünïcode");
  });

  it("seals the same secret differently each time (a fresh IV)", () => {
    expect(box.seal("same", WHERE)).not.toBe(box.seal("same", WHERE));
  });

  it("refuses a value moved to another row, altered, cut or foreign", () => {
    const sealed = box.seal("secret", WHERE);
    expect(() => box.open(sealed, "crm_calendar_connections.password:user-2")).toThrow(SecretBoxError);
    const [v, id, iv, body] = sealed.split(".");
    const flipped = `${body.slice(0, 2)}${body[2] === "A" ? "B" : "A"}${body.slice(3)}`;
    expect(() => box.open([v, id, iv, flipped].join("."), WHERE)).toThrow("altered");
    expect(() => box.open([v, id, iv, "AA"].join("."), WHERE)).toThrow("cut short");
    expect(() => box.open("plain text", WHERE)).toThrow("not a value sealed by this server");
    expect(() => createSecretBox([OTHER]).open(sealed, WHERE)).toThrow("a key this server does not have");
  });

  it("rotates: the newest key seals, an older one still opens what it sealed", () => {
    const old = box.seal("secret", WHERE);
    const rotated = createSecretBox([OTHER, KEY]);
    expect(rotated.open(old, WHERE)).toBe("secret");
    expect(rotated.isStale(old)).toBe(true);
    const fresh = rotated.seal("secret", WHERE);
    expect(rotated.isStale(fresh)).toBe(false);
    expect(() => box.open(fresh, WHERE)).toThrow(SecretBoxError);
  });

  it("needs a key", () => {
    expect(() => createSecretBox([])).toThrow(SecretBoxError);
  });
});

describe("loadSecretBox", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
  });
  afterAll(() => database?.close());

  it("generates one key, stores it, and every load (instance) shares it", async () => {
    const first = await loadSecretBox(database.db, null);
    const second = await loadSecretBox(database.db, null);
    expect(second.open(first.seal("shared", WHERE), WHERE)).toBe("shared");
    const rows = await database.db
      .selectFrom("app_settings")
      .selectAll()
      .where("key", "=", "encryption_key")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("seals with ENCRYPTION_KEY once set, and still opens what the stored key sealed", async () => {
    const generated = await loadSecretBox(database.db, null);
    const before = generated.seal("kept", WHERE);
    const configured = await loadSecretBox(database.db, KEY);
    expect(configured.open(before, WHERE)).toBe("kept");
    expect(configured.isStale(before)).toBe(true);
    expect(createSecretBox([KEY]).open(configured.seal("new", WHERE), WHERE)).toBe("new");
  });
});

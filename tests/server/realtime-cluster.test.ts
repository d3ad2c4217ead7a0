/**
 * Socket events across instances (issue 11): two instances on one PostgreSQL database and one
 * bucket; a browser connected to B receives what is done through A, on every namespace and
 * for every kind of event — resource changes on a live list (a long one too, over NOTIFY's
 * 8000 bytes), DAM folder and asset changes, PDF processing progress, a hotspot save — and
 * still does after the instances' LISTEN connections are cut.
 */
import { sql } from "kysely";
import sharp from "sharp";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import type { DamChange, DamFolder, DamUploadResponse } from "../../schemas/dam";
import { DAM_CHANGE_EVENT } from "../../schemas/dam";
import {
  DAM_NAMESPACE,
  type PresenceAck,
  type PresenceMessage,
  type ResourceChangeMessage,
  type SubscribeAck,
} from "../../schemas/realtime";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { DRIVERS, startInstances, type TestServer } from "./harness";
import { openSocket, Received } from "./received";

/** Longest wait for one event; generous, so a loaded machine is slower, not red. */
const EVENT_MS = 30_000;
/** Longest wait for a catalogue to be processed. */
const PROCESS_MS = 90_000;

describe.runIf(DRIVERS.includes("postgres"))("socket events across two instances", () => {
  let a: TestServer;
  let b: TestServer;
  let token: string;
  let categoryId: string;
  const sockets: Socket[] = [];

  /** A browser's socket on `server` (the admin's unless `as` says whose token). */
  const connect = (server: TestServer, namespace = "/", as = token) =>
    openSocket(server.baseUrl, as, sockets, namespace);

  /** A socket on `server` subscribed to live lists of `resources`, recording their changes. */
  async function liveList(server: TestServer, ...resources: string[]) {
    const socket = await connect(server);
    const changes = new Received<ResourceChangeMessage>(socket, "change", EVENT_MS);
    for (const resource of resources) {
      const ack = (await socket.timeout(EVENT_MS).emitWithAck("subscribe", resource)) as SubscribeAck;
      expect(ack).toEqual({ ok: true });
    }
    return changes;
  }

  const call = <T = Record<string, unknown>>(
    server: TestServer,
    method: string,
    path: string,
    body?: unknown,
  ) => server.api<T>(method, path, { token, body });

  async function upload(
    server: TestServer,
    path: string,
    fields: Record<string, string>,
    file: Buffer,
    name: string,
  ) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("file", new Blob([new Uint8Array(file)]), name);
    const res = await fetch(`${server.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    return JSON.parse(text);
  }

  beforeAll(async () => {
    [a, b] = await startInstances(2, {}, { storage: "s3" });
    token = (await a.signIn()).accessToken;
    const category = await call<{ id: string }>(a, "POST", "/api/categories", { name: "Cluster lamps" });
    expect(category.status).toBe(201);
    categoryId = category.body.id;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    // The first instance owns the database: close the other one first.
    await b?.close();
    await a?.close();
  });

  it("a live list on B sees products created, updated and deleted through A, and the other way round", async () => {
    const onB = await liveList(b, "products");
    const onA = await liveList(a, "products");

    const created = await call<{ id: string }>(a, "POST", "/api/products", {
      sku_code: "CL-1",
      name: "Cluster lamp",
      price: 10,
      category_id: categoryId,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await onB.until((m) => m.type === "created" && m.ids.includes(id), "created change on B");

    expect((await call(a, "PATCH", `/api/products/${id}`, { name: "Cluster lamp v2" })).status).toBe(200);
    await onB.until((m) => m.type === "updated" && m.ids.includes(id), "updated change on B");

    // A write through B reaches A's sockets, and B's own.
    const updates = (list: Received<ResourceChangeMessage>) =>
      list.seen.filter((m) => m.type === "updated" && m.ids.includes(id)).length;
    expect((await call(b, "PATCH", `/api/products/${id}`, { price: 12 })).status).toBe(200);
    await onA.until(() => updates(onA) === 2, "both updates on A");
    await onB.until(() => updates(onB) === 2, "both updates on B");

    expect((await call(a, "DELETE", `/api/products/${id}`)).status).toBe(204);
    const deleted = await onB.until((m) => m.type === "deleted" && m.ids.includes(id), "deleted change on B");
    expect(deleted).toEqual({ resource: "products", type: "deleted", ids: [id] });
    // Once per socket: neither the remote copy nor the local one is doubled.
    expect(onB.seen.filter((m) => m.type === "deleted" && m.ids.includes(id))).toHaveLength(1);
  });

  it("an edit form open through B is seen by the editor on A, and its closing too", async () => {
    const email = `cluster-editor-${Date.now()}@example.com`;
    const made = await call(a, "POST", "/api/users", {
      first_name: "Cleo",
      last_name: "Cluster",
      email,
      password: "Cluster-passw0rd",
      role: 3,
      modules: [MODULE_IDS.products],
    });
    expect(made.status).toBe(201);
    const cleo = (await b.signIn(email, "Cluster-passw0rd")).accessToken;
    const id = "5d0c6f55-0a7e-4c35-9b0e-6f3b7c2d9a10";
    const onA = await connect(a);
    const heard = new Received<PresenceMessage>(onA, "presence", EVENT_MS);
    expect(await onA.timeout(EVENT_MS).emitWithAck("presence:join", "products", id)).toMatchObject({
      ok: true,
    });
    const onB = await connect(b, "/", cleo);
    const ack = (await onB.timeout(EVENT_MS).emitWithAck("presence:join", "products", id)) as PresenceAck;
    expect(ack.ok && ack.editors.map((e) => e.name)).toEqual(["Admin User", "Cleo Cluster"]);
    await heard.until((m) => m.editors.some((e) => e.name === "Cleo Cluster"), "Cleo's arrival on A");
    onB.close();
    await heard.until(
      (m) => m === heard.seen.at(-1) && m.editors.length === 1 && heard.seen.length > 1,
      "Cleo's leaving on A",
    );
  });

  it("keeps the order of events emitted on A, on B", async () => {
    const onB = await liveList(b, "products");
    const ids = Array.from({ length: 50 }, (_, i) => `order-${i}`);
    // Straight from the engine's event bus, in one go, as a burst of writes would publish them.
    for (const id of ids) {
      a.ctx.events.publish({
        resource: "products",
        moduleID: MODULE_IDS.products,
        type: "updated",
        ids: [id],
        actorId: null,
      });
    }
    const inOrder = () => onB.seen.flatMap((m) => m.ids).filter((id) => id.startsWith("order-"));
    await onB.until(() => inOrder().length === ids.length, "all 50 events on B");
    expect(inOrder()).toEqual(ids);
  });

  it("a change too long for one NOTIFY (an import of 300 products) reaches B whole", async () => {
    const onB = await liveList(b, "products");
    const rows = Array.from({ length: 300 }, (_, i) => `CL-IMP-${i},Imported ${i},5,Cluster lamps,,active,`);
    const res = await fetch(`${a.baseUrl}/api/products/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
      body: ["SKU code,Name,Price,Category,Sub-category,Status,Images", ...rows].join("\n"),
    });
    expect(await res.json()).toMatchObject({ created: 300, updated: 0, errors: [] });
    const change = await onB.until(
      (m) => m.type === "created" && m.ids.length > 1,
      "the import's change on B",
    );
    expect(Buffer.byteLength(JSON.stringify(change))).toBeGreaterThan(8000);
    expect(new Set(change.ids).size).toBe(300);
  });

  it("the /dam namespace on B sees folders and assets changed through A", async () => {
    const socket = await connect(b, DAM_NAMESPACE);
    const onB = new Received<DamChange>(socket, DAM_CHANGE_EVENT, EVENT_MS);

    const folder = await call<DamFolder>(a, "POST", "/dam/folders", { name: "Cluster folder" });
    expect(folder.status).toBe(201);
    await onB.until(
      (m) => m.kind === "folder" && m.type === "created" && m.ids.includes(folder.body.id),
      "folder created on B",
    );

    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#39c" } })
      .png()
      .toBuffer();
    const uploaded = (await upload(
      a,
      "/dam/assets",
      { folderId: folder.body.id },
      png,
      "dot.png",
    )) as DamUploadResponse;
    const assetId = uploaded.data[0].id;
    const created = await onB.until(
      (m) => m.kind === "asset" && m.type === "created" && m.ids.includes(assetId),
      "asset created on B",
    );
    expect(created.folderIds).toEqual([folder.body.id]);

    expect(
      (await call(a, "PATCH", `/dam/folders/${folder.body.id}`, { name: "Cluster folder 2" })).status,
    ).toBe(200);
    await onB.until(
      (m) => m.kind === "folder" && m.type === "updated" && m.ids.includes(folder.body.id),
      "folder renamed on B",
    );
  });

  it("processing progress of a PDF uploaded through A, and a hotspot save through A, reach B", async () => {
    // Either instance may run the processing job: a list on each, so one of them is remote.
    const lists = [await liveList(a, "pdfs"), await liveList(b, "pdfs")];
    const pdf = await makeCataloguePdf({ pages: 2, photos: false });
    const { id } = (await upload(a, "/api/pdfs", { name: "Cluster catalogue" }, pdf, "cluster.pdf")) as {
      id: string;
    };
    const about = (m: ResourceChangeMessage) => m.resource === "pdfs" && m.ids.includes(id);

    await lists[1].until((m) => about(m) && m.type === "created", "catalogue created on B");
    // As the list on B does: read the row through B again on each live update it receives.
    const updates = (list: Received<ResourceChangeMessage>) =>
      list.seen.filter((m) => about(m) && m.type === "updated").length;
    const deadline = Date.now() + PROCESS_MS;
    for (;;) {
      const seen = updates(lists[1]);
      const row = await call<{ pdflist_status: string; error_message: string | null }>(
        b,
        "GET",
        `/api/pdfs/${id}`,
      );
      expect(row.body.error_message).toBeNull();
      if (row.body.pdflist_status === "ready") break;
      await lists[1].until(() => updates(lists[1]) > seen, "a processing update on B", deadline - Date.now());
    }
    // Progress ("Reading the PDF", "Reading the text", …, ready) on both instances' lists.
    for (const list of lists) expect(updates(list)).toBeGreaterThanOrEqual(2);

    const before = lists[1].seen.length;
    const saved = await call(a, "PUT", `/api/pdfs/${id}/pages/1/links`, {
      revision: 0,
      links: [{ x: 0.1, y: 0.1, w: 0.2, h: 0.1, kind: "link", target: { url: "https://example.com/a" } }],
    });
    expect(saved.status).toBe(200);
    await lists[1].until(
      (m) => lists[1].seen.indexOf(m) >= before && about(m) && m.type === "updated",
      "hotspot save on B",
    );
  });

  it("events flow again once the LISTEN connections are cut and re-opened", async () => {
    const onB = await liveList(b, "products");
    const cycled = (server: TestServer) =>
      new Promise<void>((resolve) => {
        let lost = false;
        server.database.broadcast.onStatus((connected) => {
          if (!connected) lost = true;
          else if (lost) resolve();
        });
      });
    const back = Promise.all([cycled(a), cycled(b)]);
    const { rows } = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and application_name = 'atelier-listen'`.execute(a.database.db);
    expect(rows[0].n).toBe(2);
    await back;

    const created = await call<{ id: string }>(a, "POST", "/api/products", {
      sku_code: "CL-AFTER",
      name: "After the cut",
      price: 10,
      category_id: categoryId,
    });
    expect(created.status).toBe(201);
    await onB.until(
      (m) => m.type === "created" && m.ids.includes(created.body.id),
      "created change on B after the cut",
    );
  });
});

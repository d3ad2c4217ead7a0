/**
 * The samples a test run may start with (issue 30): a real record of the trigger's kind — a
 * client, an opportunity, a form's answer, a proposal, a store cart, a CRM email — read into the
 * record and client its trigger would give a run (triggers.ts and the modules' event hooks build
 * the same shapes), or a record made from values the person typed for the trigger's variables.
 * A registry by trigger kind: a trigger without a source here is tested with typed values only.
 */
import { sql } from "kysely";
import type { Trigger, TriggerKind } from "../../../schemas/automation";
import type { Db, RunSubject } from "../../runs";

/** A record a person may pick, as the picker lists it. */
export interface SampleCandidate {
  id: string;
  label: string;
  description: string | null;
}

/** What a test run starts with: the trigger's record and the client it is about. */
export interface SampleStart {
  record: Record<string, unknown>;
  subject: RunSubject | null;
}

interface SampleSource {
  /** What the picker calls one ("client"). */
  noun: string;
  list(db: Db, q: string, trigger: Trigger): Promise<SampleCandidate[]>;
  read(db: Db, id: string): Promise<SampleStart | null>;
}

const LIMIT = 20;
/** Keys that would reach an object's prototype: never a field of a typed sample. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const aboutClient = (id: unknown): RunSubject | null => (id ? { type: "client", id: String(id) } : null);
/** As a run keeps its record: JSON (dates as ISO text). */
const asJson = (row: object) => JSON.parse(JSON.stringify(row)) as Record<string, unknown>;

const clients: SampleSource = {
  noun: "client",
  async list(db, q) {
    let query = db.selectFrom("clients").select(["id", "name", "email", "company"]);
    if (q)
      query = query.where((eb) =>
        eb.or([eb("name", "ilike", like(q)), eb("email", "ilike", like(q)), eb("company", "ilike", like(q))]),
      );
    const rows = await query.orderBy("updated_at", "desc").orderBy("id").limit(LIMIT).execute();
    return rows.map((r) => ({
      id: r.id,
      label: r.name,
      description: [r.email, r.company].filter(Boolean).join(" · ") || null,
    }));
  },
  async read(db, id) {
    const row = await db.selectFrom("clients").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? { record: asJson(row), subject: aboutClient(row.id) } : null;
  },
};

const opportunities: SampleSource = {
  noun: "opportunity",
  async list(db, q, trigger) {
    let query = db
      .selectFrom("opportunities as o")
      .innerJoin("clients as c", "c.id", "o.client_id")
      .select(["o.id", "o.title", "o.stage", "c.name as client"]);
    if (trigger.stage) query = query.where("o.stage", "=", trigger.stage);
    if (q)
      query = query.where((eb) => eb.or([eb("o.title", "ilike", like(q)), eb("c.name", "ilike", like(q))]));
    const rows = await query.orderBy("o.updated_at", "desc").orderBy("o.id").limit(LIMIT).execute();
    return rows.map((r) => ({ id: r.id, label: r.title, description: `${r.client} · ${r.stage}` }));
  },
  async read(db, id) {
    const row = await db.selectFrom("opportunities").selectAll().where("id", "=", id).executeTakeFirst();
    // As crm-events.ts `opportunityMoved` gives it: the row and the stage it came from.
    return row
      ? { record: { ...asJson(row), fromStage: row.stage }, subject: aboutClient(row.client_id) }
      : null;
  },
};

const submissions: SampleSource = {
  noun: "form answer",
  async list(db, q, trigger) {
    let query = db
      .selectFrom("form_submissions as s")
      .innerJoin("forms as f", "f.id", "s.form_id")
      .select(["s.id", "s.created_at", "f.name as form"]);
    if (trigger.formId) query = query.where("s.form_id", "=", trigger.formId);
    if (q) query = query.where(sql<boolean>`s.answers::text ilike ${like(q)}`);
    const rows = await query.orderBy("s.created_at", "desc").orderBy("s.id").limit(LIMIT).execute();
    return rows.map((r) => ({
      id: r.id,
      label: `${r.form}: answer of ${new Date(r.created_at).toISOString().slice(0, 16).replace("T", " ")} UTC`,
      description: null,
    }));
  },
  async read(db, id) {
    const row = await db
      .selectFrom("form_submissions as s")
      .innerJoin("forms as f", "f.id", "s.form_id")
      .select(["s.id", "s.form_id", "s.answers", "s.tracking", "s.created_at", "f.name as form"])
      .where("s.id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    // The client the CRM made of the answer (its timeline entry names it), as content-events.ts finds it.
    const made = await db
      .selectFrom("crm_timeline")
      .select("client_id")
      .where("dedupe_key", "=", `form:${row.id}`)
      .executeTakeFirst();
    const answers = (row.answers ?? {}) as Record<string, unknown>;
    const tracking = (row.tracking ?? {}) as { parameters?: unknown };
    return {
      record: asJson({
        ...answers,
        answers,
        formId: row.form_id,
        form: row.form,
        submissionId: row.id,
        submittedAt: row.created_at,
        utm: tracking.parameters ?? {},
      }),
      subject: aboutClient(made?.client_id),
    };
  },
};

const proposals: SampleSource = {
  noun: "proposal",
  async list(db, q) {
    let query = db
      .selectFrom("proposals as p")
      .innerJoin("clients as c", "c.id", "p.client_id")
      .select(["p.id", "p.title", "p.number", "p.status", "c.name as client"]);
    if (q)
      query = query.where((eb) => eb.or([eb("p.title", "ilike", like(q)), eb("c.name", "ilike", like(q))]));
    const rows = await query.orderBy("p.updated_at", "desc").orderBy("p.id").limit(LIMIT).execute();
    return rows.map((r) => ({
      id: r.id,
      label: [r.number, r.title].filter(Boolean).join(" "),
      description: `${r.client} · ${r.status}`,
    }));
  },
  async read(db, id) {
    const row = await db.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    // The share link's token is a secret: a test's record shows the rest.
    const { share_token: _secret, ...rest } = row;
    return { record: asJson(rest), subject: aboutClient(row.client_id) };
  },
};

const carts: SampleSource = {
  noun: "cart",
  async list(db, q) {
    let query = db
      .selectFrom("store_carts")
      .select(["id", "customer_name", "email", "item_count", "status"])
      .where("source", "=", "store");
    if (q)
      query = query.where((eb) =>
        eb.or([eb("customer_name", "ilike", like(q)), eb("email", "ilike", like(q))]),
      );
    const rows = await query.orderBy("updated_at", "desc").orderBy("id").limit(LIMIT).execute();
    return rows.map((r) => ({
      id: r.id,
      label: r.customer_name || r.email || "A store cart",
      description: `${r.item_count} item${r.item_count === 1 ? "" : "s"} · ${r.status.replace("_", " ")}`,
    }));
  },
  async read(db, id) {
    const row = await db.selectFrom("store_carts").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    // As carts.ts gives the "cart abandoned" trigger its record (total in major units).
    const total = Number(row.total_minor) / 100;
    return {
      record: asJson({
        id: row.id,
        cartId: row.external_id,
        email: row.email,
        customerName: row.customer_name,
        total,
        currency: row.currency,
        itemCount: row.item_count,
        items: row.items,
      }),
      subject: aboutClient(row.client_id),
    };
  },
};

const emails: SampleSource = {
  noun: "email",
  async list(db, q) {
    let query = db
      .selectFrom("crm_messages as m")
      .innerJoin("clients as c", "c.id", "m.client_id")
      .select(["m.id", "m.subject", "m.created_at", "c.name as client"])
      .where("m.channel", "=", "email")
      .where("m.direction", "=", "out");
    if (q)
      query = query.where((eb) => eb.or([eb("m.subject", "ilike", like(q)), eb("c.name", "ilike", like(q))]));
    const rows = await query.orderBy("m.created_at", "desc").orderBy("m.id").limit(LIMIT).execute();
    return rows.map((r) => ({ id: r.id, label: r.subject || "(no subject)", description: `To ${r.client}` }));
  },
  async read(db, id) {
    const row = await db
      .selectFrom("crm_messages")
      .select(["id", "client_id", "subject"])
      .where("id", "=", id)
      .where("channel", "=", "email")
      .executeTakeFirst();
    if (!row) return null;
    // As crm-events.ts gives "email opened" / "link clicked" (a sample link for the click).
    const record = {
      clientId: row.client_id,
      messageId: row.id,
      subject: row.subject,
      at: new Date().toISOString(),
    };
    return { record, subject: aboutClient(row.client_id) };
  },
};

const SOURCES: Partial<Record<TriggerKind, SampleSource>> = {
  "cart-abandoned": carts,
  "client-created": clients,
  "email-clicked": emails,
  "email-opened": emails,
  "form-submitted": submissions,
  manual: clients,
  "opportunity-stage-changed": opportunities,
  "proposal-accepted": proposals,
};

/** What a trigger's records are called, or null when it is tested with typed values only. */
export const sampleNoun = (kind: TriggerKind): string | null => SOURCES[kind]?.noun ?? null;

/** The records a person may test the trigger with (newest first, `q` searched). */
export async function sampleCandidates(db: Db, trigger: Trigger, q: string): Promise<SampleCandidate[]> {
  const source = SOURCES[trigger.kind];
  return source ? source.list(db, q.trim().slice(0, 100), trigger) : [];
}

/** The trigger's record and client from a real record (null: no such record). */
export function sampleFromRecord(db: Db, trigger: Trigger, id: string): Promise<SampleStart | null> {
  const source = SOURCES[trigger.kind];
  return source ? source.read(db, id) : Promise.resolve(null);
}

/**
 * A record from typed values: `{ "company": "Acme", "trigger.score": "12", "answers.email": … }`
 * (a leading `trigger.` is dropped; dots make nested fields). Numbers and yes/no stay text as
 * typed: variables read text anyway.
 */
export function sampleFromValues(values: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const path = key.replace(/^trigger\./, "").split(".");
    if (path.some((part) => UNSAFE_KEYS.has(part))) continue;
    let at = record;
    for (const part of path.slice(0, -1)) {
      if (typeof at[part] !== "object" || at[part] === null) at[part] = {};
      at = at[part] as Record<string, unknown>;
    }
    at[path[path.length - 1]] = value;
  }
  return record;
}

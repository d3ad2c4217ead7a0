/**
 * What an automation's run knows when a step runs: the trigger's record (the run's context),
 * its client (the subject, read fresh: a later step sees an earlier step's update), and the
 * outputs of the steps done.
 */
import type { Kysely, Selectable, Transaction } from "kysely";
import type { TriggerKind } from "../../../schemas/automation";
import type { Database } from "../../db";
import { prepared } from "../../db/statements";
import type { ClientsTable } from "../../db/types-crm";
import type { Run, StepExecutor } from "../../runs";
import type { AutomationStepDef } from "./flow";
import type { RunScope } from "./variables";

/** The context a run starts with. */
export interface AutomationContext {
  trigger: TriggerKind;
  /** The record the trigger is about (a client, an opportunity, a form's answers, a webhook's body). */
  record: Record<string, unknown>;
  /** Who ran it by hand, if someone did. */
  startedBy?: string | null;
  /** The failed run this one runs again from the start (docs/automation-api.md, "When a run fails"). */
  retryOf?: string;
}

export type AutomationRun = Run<AutomationContext>;

/** An executor of an automation's steps. */
export type AutomationExecutor = StepExecutor<AutomationStepDef, AutomationContext>;

type Db = Kysely<Database> | Transaction<Database>;

export type Client = Selectable<ClientsTable>;

/**
 * The clients read in a step's transaction, by id: the kind's exit check reads the run's client
 * before each step, and the step reads it for its variables; one read serves the exit checks
 * and steps of a batch that follow in the same transaction (the run engine runs a run's steps
 * due now in one). Steps that write the client keep it true (add_tag, update_record:
 * rememberClient); any other step that may write it forgets them (forgetClients). A client
 * deleted by another transaction meanwhile is seen by the run's next transaction.
 */
const readIn = new WeakMap<Db, Map<string, Client | null>>();

async function readClient(db: Db, id: string): Promise<Client | null> {
  const known = readIn.get(db);
  if (known?.has(id)) return known.get(id) ?? null;
  // Read on every step of a run about a client: a prepared statement on PostgreSQL.
  const read = db.selectFrom("clients").selectAll().where("id", "=", id).compile();
  const client = (await db.executeQuery(prepared(read))).rows[0] ?? null;
  // Only a transaction's reads are kept: the app's db reads afresh every time.
  if (!db.isTransaction) return client;
  if (known) known.set(id, client);
  else readIn.set(db, new Map([[id, client]]));
  return client;
}

/** The client columns that are instants: to_jsonb writes them as ISO text, a read as Dates. */
const CLIENT_INSTANTS = [
  "created_at",
  "updated_at",
  "sms_opted_out_at",
  "last_activity_at",
] as const satisfies readonly (keyof Client)[];

/**
 * The run's client as the engine read it with the run's lock (RunKind.subjectRead: its row as
 * JSON, null when gone): the exit check and the steps of this transaction read it from here.
 */
export function lockedClient(db: Db, id: string, row: Record<string, unknown> | null): void {
  if (!db.isTransaction) return;
  let client: Client | null = null;
  if (row) {
    const instants = CLIENT_INSTANTS.map((c) => [c, typeof row[c] === "string" ? new Date(row[c]) : row[c]]);
    client = { ...row, ...Object.fromEntries(instants) } as Client;
  }
  const known = readIn.get(db);
  if (known) known.set(id, client);
  else readIn.set(db, new Map([[id, client]]));
}

/** A client as a step of this transaction wrote it (its row as the update returned it). */
export function rememberClient(db: Db, client: Client): void {
  if (!db.isTransaction) return;
  const known = readIn.get(db);
  if (known) known.set(String(client.id), client);
  else readIn.set(db, new Map([[String(client.id), client]]));
}

/** The client read in this transaction, if it was (undefined: not read). */
export const clientReadIn = (db: Db, id: string): Client | null | undefined => readIn.get(db)?.get(id);

/** After a step that may write clients in ways this file does not follow: read them again. */
export function forgetClients(db: Db): void {
  readIn.delete(db);
}

/** The exit check's read of the run's client (null: gone). */
export async function checkClient(db: Db, run: AutomationRun): Promise<Client | null> {
  if (run.subject?.type !== "client") return null;
  return readClient(db, run.subject.id);
}

/** The client of a run (null for a run about no client, or one deleted since). */
export async function clientOf(db: Db, run: AutomationRun): Promise<Client | null> {
  if (run.subject?.type !== "client") return null;
  return readClient(db, run.subject.id);
}

export async function scopeOf(db: Db, run: AutomationRun): Promise<RunScope> {
  const client = await clientOf(db, run);
  return {
    trigger: run.context?.record ?? {},
    client: client ? { ...client } : null,
    steps: run.outputs ?? {},
  };
}

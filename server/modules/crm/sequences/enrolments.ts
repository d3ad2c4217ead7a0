/**
 * Enrolments: a client in a sequence is a run of the run engine (kind 'sequence'). Starting,
 * stopping and resuming go through `ctx.runs`; the tables and figures read the engine's runs
 * with the client's name, the step's place and when it is due, in one statement a page.
 */
import { sql } from "kysely";
import {
  type Enrolment,
  type EnrolmentStatus,
  type EnrolResult,
  type SequenceStats,
  type SequenceStep,
  type SequenceStepType,
  stepLabel,
} from "../../../../schemas/crm-sequence-steps";
import type { AppContext } from "../../../context";
import { parsedJson } from "../../../db/json";
import { conflict, notFound } from "../../../http/errors";
import { pageWithTotal } from "../../../http/list-page";
import type { Db as RunDb, RunStatus } from "../../../runs";
import { addTimeline, type Db } from "../timeline";
import {
  baseKey,
  RESUMED_EVENT,
  SEQUENCE_KIND,
  type SequenceContext,
  type SequenceDefinition,
} from "./kind-names";
import { queueLive } from "./live";
import { readSteps } from "./steps";

export interface EnrolInput {
  sequenceId: string;
  clientIds: readonly string[];
  /** Null for an enrolment nobody made by hand (a form's answer). */
  actorId: string | null;
  source: "manual" | "list" | "form" | "automation";
}

/**
 * Enrols clients in a sequence, in `trx`: one run each, on the sequence's current steps; a
 * client already active in it is left as they are (the engine's dedupe key). 404 for an
 * unknown sequence, 409 for one without steps.
 */
export async function enrolClients(ctx: AppContext, trx: Db, input: EnrolInput): Promise<EnrolResult> {
  const sequence = await trx
    .selectFrom("crm_sequences")
    .select(["id", "name"])
    .where("id", "=", input.sequenceId)
    // Held against a save of the steps meanwhile: every enrolment of this call is on one version.
    .forShare()
    .executeTakeFirst();
  if (!sequence) throw notFound("Sequence not found");
  const { steps, version } = await readSteps(trx, sequence.id);
  if (!steps.length) throw conflict("This sequence has no steps yet: add steps before enrolling clients");
  const ids = [...new Set(input.clientIds)].sort();
  const clients = ids.length
    ? await trx
        .selectFrom("clients")
        .select(["id", "consent_email", "consent_sms"])
        .where("id", "in", ids)
        .orderBy("id")
        .execute()
    : [];
  const found = new Set(clients.map((c) => c.id));
  const result: EnrolResult = {
    enrolled: [],
    alreadyActive: [],
    notFound: ids.filter((id) => !found.has(id)),
  };
  const definition: SequenceDefinition = { steps };
  for (const client of clients) {
    const { run, created } = await ctx.runs.start<SequenceDefinition, SequenceContext>(trx as RunDb, {
      kind: SEQUENCE_KIND,
      ownerKey: sequence.id,
      version,
      definition,
      subject: { type: "client", id: client.id },
      context: {
        enrolledBy: input.actorId,
        source: input.source,
        consent: { email: client.consent_email, sms: client.consent_sms },
      },
      dedupeKey: `${sequence.id}:${client.id}`,
    });
    if (created) result.enrolled.push({ clientId: client.id, runId: run.id });
    else result.alreadyActive.push(client.id);
  }
  if (result.enrolled.length) {
    await addTimeline(
      trx,
      result.enrolled.map((e) => ({
        clientId: e.clientId,
        kind: "sequence" as const,
        title: `Enrolled in the sequence ${sequence.name}`,
        data: { sequenceId: sequence.id, sequence: sequence.name, source: input.source, version },
        refId: e.runId,
        actorId: input.actorId,
        dedupeKey: `sequence:${e.runId}:start`,
      })),
    );
    await queueLive(ctx, trx, { sequenceId: sequence.id, clientIds: result.enrolled.map((e) => e.clientId) });
  }
  return result;
}

const ENROLMENT_OF: Readonly<Record<RunStatus, EnrolmentStatus>> = {
  running: "active",
  waiting: "active",
  finished: "finished",
  exited: "exited",
  cancelled: "stopped",
  failed: "failed",
};
const RUN_STATUSES_OF: Readonly<Record<EnrolmentStatus, RunStatus[]>> = {
  active: ["running", "waiting"],
  finished: ["finished"],
  exited: ["exited"],
  stopped: ["cancelled"],
  failed: ["failed"],
};

export interface EnrolmentQuery {
  sequenceId?: string;
  clientId?: string;
  status?: EnrolmentStatus[];
  exitReason?: string;
  /** Searches the client's name and email. */
  q?: string;
  page: number;
  pageSize: number;
}

/** Enrolments newest first, with their client, step and next time; `total` for the pager. */
export async function listEnrolments(
  db: Db,
  query: EnrolmentQuery,
): Promise<{ data: Enrolment[]; total: number }> {
  let q = db
    .selectFrom("runs as r")
    // The casts only for rows that are a sequence's client: another kind's keys need not be uuids.
    .leftJoin("clients as c", (j) =>
      j.on(sql`c.id`, "=", sql`case when r.subject_type = 'client' then cast(r.subject_id as uuid) end`),
    )
    .leftJoin("crm_sequences as s", (j) =>
      j.on(sql`s.id`, "=", sql`case when r.kind = ${SEQUENCE_KIND} then cast(r.owner_key as uuid) end`),
    )
    .leftJoin("run_steps as st", (j) =>
      j.onRef("st.run_id", "=", "r.id").onRef("st.step_key", "=", "r.cursor"),
    )
    .where("r.kind", "=", SEQUENCE_KIND)
    .where("r.subject_type", "=", "client");
  if (query.sequenceId) q = q.where("r.owner_key", "=", query.sequenceId);
  if (query.clientId) q = q.where("r.subject_id", "=", query.clientId);
  if (query.status?.length)
    q = q.where(
      "r.status",
      "in",
      query.status.flatMap((s) => RUN_STATUSES_OF[s]),
    );
  if (query.exitReason) q = q.where("r.exit_reason", "=", query.exitReason);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb("c.name", "ilike", like), eb("c.email", "ilike", like)]));
  }
  const page = await pageWithTotal(
    db,
    q
      .select([
        "r.id",
        "r.owner_key",
        "r.subject_id",
        "r.status",
        "r.exit_reason",
        "r.version",
        "r.definition_hash",
        "r.cursor",
        "r.awaiting",
        "r.error",
        "r.started_at",
        "r.finished_at",
        "c.name as client_name",
        "c.email as client_email",
        "s.name as sequence_name",
        "st.status as step_status",
        "st.due_at",
      ])
      .orderBy("r.started_at", "desc")
      .orderBy("r.id", "desc"),
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  const rows = page.rows;
  const hashes = [...new Set(rows.map((r) => r.definition_hash))];
  const definitions = new Map(
    hashes.length
      ? (
          await db
            .selectFrom("run_definitions")
            .select(["hash", "definition"])
            .where("hash", "in", hashes)
            .execute()
        ).map((d) => [d.hash, parsedJson<SequenceDefinition>(d.definition)])
      : [],
  );
  const data = rows.map((r): Enrolment => {
    const steps: SequenceStep[] = definitions.get(r.definition_hash)?.steps ?? [];
    const index = r.cursor ? steps.findIndex((s) => s.key === baseKey(r.cursor as string)) : -1;
    const step = index >= 0 ? steps[index] : undefined;
    const active = r.status === "running" || r.status === "waiting";
    const held = active && r.awaiting === RESUMED_EVENT;
    return {
      id: r.id,
      sequenceId: r.owner_key,
      sequenceName: r.sequence_name ?? "(deleted sequence)",
      clientId: r.subject_id ?? "",
      clientName: r.client_name ?? "(deleted client)",
      clientEmail: r.client_email ?? null,
      status: ENROLMENT_OF[r.status],
      exitReason: r.exit_reason,
      version: r.version,
      step:
        step && r.status !== "finished"
          ? { index, count: steps.length, type: step.type as SequenceStepType, label: stepLabel(step) }
          : null,
      nextAt:
        active && !held && r.step_status === "scheduled" && r.due_at
          ? new Date(r.due_at).toISOString()
          : null,
      held,
      error: r.error,
      startedAt: new Date(r.started_at).toISOString(),
      finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    };
  });
  return { data, total: page.total };
}

/** A sequence's figures, from its runs (the engine's counts) and its held ones. */
export async function sequenceStats(ctx: AppContext, db: Db, sequenceId: string): Promise<SequenceStats> {
  const exists = await db
    .selectFrom("crm_sequences")
    .select("id")
    .where("id", "=", sequenceId)
    .executeTakeFirst();
  if (!exists) throw notFound("Sequence not found");
  const counts = (await ctx.runs.counts(SEQUENCE_KIND, [sequenceId], db as RunDb)).get(sequenceId);
  const held = await db
    .selectFrom("runs")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("kind", "=", SEQUENCE_KIND)
    .where("owner_key", "=", sequenceId)
    .where("status", "in", ["running", "waiting"])
    .where("awaiting", "=", RESUMED_EVENT)
    .executeTakeFirstOrThrow();
  const by = counts?.byStatus;
  const reason = (r: string) => counts?.byExitReason[r] ?? 0;
  return {
    enrolled: counts?.total ?? 0,
    active: (by?.running ?? 0) + (by?.waiting ?? 0),
    held: Number(held.n),
    finished: by?.finished ?? 0,
    replied: reason("replied"),
    optedOut: reason("opted_out"),
    won: reason("won"),
    lost: reason("lost"),
    stopped: by?.cancelled ?? 0,
    failed: by?.failed ?? 0,
  };
}

/** Stops one enrolment of a sequence (404 unless it is one of its, 409 once it has ended). */
export async function stopEnrolment(ctx: AppContext, sequenceId: string, runId: string): Promise<void> {
  const run = await ctx.runs.get(runId);
  if (!run || run.kind !== SEQUENCE_KIND || run.ownerKey !== sequenceId)
    throw notFound("Enrolment not found");
  if (run.status !== "running" && run.status !== "waiting")
    throw conflict("This enrolment has ended already");
  await ctx.runs.cancel(runId);
}

/** Lets every step held by the pause run (in the transaction making the sequence active). */
export async function resumeHeld(ctx: AppContext, trx: Db, sequenceId: string): Promise<number> {
  const held = await trx
    .selectFrom("runs")
    .select("id")
    .where("kind", "=", SEQUENCE_KIND)
    .where("owner_key", "=", sequenceId)
    .where("status", "in", ["running", "waiting"])
    .where("awaiting", "=", RESUMED_EVENT)
    .orderBy("id")
    .execute();
  let resumed = 0;
  for (const { id } of held)
    resumed += (await ctx.runs.signal(trx as RunDb, { event: RESUMED_EVENT, runId: id, kind: SEQUENCE_KIND }))
      .length;
  return resumed;
}

/** Rows of the run tables as the engine's types, and how JSON is written and hashed. */
import { createHash } from "node:crypto";
import { type Selectable, sql } from "kysely";
import type { RunStepsTable, RunsTable } from "../db/types-runs";
import type { Run, RunStep } from "./contract";

/** jsonb from a value, written as JSON text and cast (one encoding on PGlite and PostgreSQL). */
export const jsonb = (value: unknown) => jsonbOf(jsonText(value));

/** A value as the JSON text jsonb is written from. */
export const jsonText = (value: unknown) => JSON.stringify(value ?? null);

/** jsonb from JSON text (jsonText), or from a slot for it in a statement kept by shape. */
export const jsonbOf = (text: unknown) => sql<string>`cast(${text} as text)::jsonb`;

/** JSON with object keys sorted, so one definition always hashes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** The hash of a definition already written as canonicalJson. */
export const hashOfCanonical = (canonical: string) => createHash("sha256").update(canonical).digest("hex");

export function toRun(row: Selectable<RunsTable>): Run {
  return {
    id: row.id,
    kind: row.kind,
    ownerKey: row.owner_key,
    version: row.version,
    definitionHash: row.definition_hash,
    subject:
      row.subject_type !== null && row.subject_id !== null
        ? { type: row.subject_type, id: row.subject_id }
        : null,
    status: row.status,
    exitReason: row.exit_reason,
    cursor: row.cursor,
    awaiting: row.awaiting,
    context: row.context,
    outputs: row.outputs ?? {},
    depth: row.depth,
    parentRunId: row.parent_run_id,
    lineage: row.lineage ?? [],
    dedupeKey: row.dedupe_key,
    stepsReached: row.steps_reached,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    updatedAt: row.updated_at,
  };
}

export function toStep(row: Selectable<RunStepsTable>): RunStep {
  return {
    runId: row.run_id,
    key: row.step_key,
    type: row.step_type,
    seq: row.seq,
    status: row.status,
    attempt: row.attempt,
    dueAt: row.due_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    input: row.input,
    output: row.output,
    error: row.error,
  };
}

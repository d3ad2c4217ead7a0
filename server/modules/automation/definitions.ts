/**
 * An automation's flow as stored (`automation_definitions`): the draft the canvas edits, the
 * published version that runs, and the incoming webhook's secret. A draft save is checked by the
 * definition's JSON Schema and `structureProblems`; a publish by `publishProblems`, each problem
 * a 400 `details` entry whose `field` is the path in the definition (`steps.0.inputs.subject`)
 * and whose `nodeId` names the canvas node at fault. A publish is the next numbered version
 * (record_versions, resource `automations`); runs already started keep the one they started on
 * (the run engine pins their definition by content).
 */
import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { type AutomationDefinition, emptyAutomation } from "../../../schemas/automation";
import { type NodeProblem, publishProblems, structureProblems } from "../../../schemas/automation-checks";
import { automationDefinitionSchema } from "../../../schemas/automation-schema";
import { asSentence, fieldErrors, invalidInputMessage } from "../../../schemas/error-messages";
import { createAjv } from "../../../schemas/validator-config";
import type { Database } from "../../db";
import { parsedJson } from "../../db/json";
import { badRequest, conflict, type FieldError, type HttpError, notFound } from "../../http/errors";
import { addVersion, getVersion, listVersions, type VersionSummary } from "../../versions/versions";

type Db = Kysely<Database> | Transaction<Database>;

/** The name versions are kept under in record_versions. */
export const VERSIONS_RESOURCE = "automations";

/** A new webhook secret: 32 random bytes, URL-safe. */
export const newWebhookSecret = () => randomBytes(32).toString("base64url");

// Compiling the definition's schema takes about a second: once, at the first save.
let validator: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;
const validate = (value: unknown) => {
  validator ??= createAjv({ coerce: false }).compile(automationDefinitionSchema);
  return validator(value) ? [] : fieldErrors(validator.errors ?? []);
};

/** A 400 whose details are field errors, or node problems (each keeps its `nodeId`). */
export function invalid(errors: ReadonlyArray<FieldError | NodeProblem>): HttpError {
  return badRequest(
    errors.length === 1 ? asSentence(errors[0]) : invalidInputMessage(errors),
    errors as FieldError[],
  );
}

/**
 * Why a definition cannot be saved as a draft (its schema, then its structure), as field errors
 * under `definition.` (the body's property), or [] when it can.
 */
export function draftProblems(definition: unknown): Array<FieldError | NodeProblem> {
  const schemaErrors = validate(definition);
  if (schemaErrors.length)
    return schemaErrors.map((e) => ({
      ...e,
      field: e.field === "(body)" ? "definition" : `definition.${e.field}`,
    }));
  return structureProblems(definition as AutomationDefinition).map((p) => ({
    ...p,
    field: `definition.${p.field}`,
  }));
}

export interface Draft {
  definition: AutomationDefinition;
  /** Send it back with the next save: a save from an older revision is a 409. */
  revision: number;
  publishedVersion: number | null;
  /** The published flow differs from the draft (there is something to publish). */
  hasChanges: boolean;
  /** Where the incoming webhook trigger posts (`/hooks/automations/{id}/{secret}`). */
  webhookPath: string;
}

/** The stored definitions of an automation (made on first read for one made before its row). */
export async function definitionsOf(db: Db, automationId: string) {
  const automation = await db
    .selectFrom("automations")
    .select(["id", "name", "status", "published_version", "owner_id", "created_by"])
    .where("id", "=", automationId)
    .executeTakeFirst();
  if (!automation) throw notFound("Automation not found");
  let row = await db
    .selectFrom("automation_definitions")
    .selectAll()
    .where("automation_id", "=", automationId)
    .executeTakeFirst();
  if (!row) {
    await createDefinitions(db, automationId, null);
    row = await db
      .selectFrom("automation_definitions")
      .selectAll()
      .where("automation_id", "=", automationId)
      .executeTakeFirstOrThrow();
  }
  return {
    automation,
    draft: parsedJson<AutomationDefinition>(row.draft),
    revision: row.revision,
    published: row.published ? parsedJson<AutomationDefinition>(row.published) : null,
    webhookSecret: row.webhook_secret,
  };
}

/** The definitions row of a new automation: an empty draft (client created, no steps). */
export async function createDefinitions(db: Db, automationId: string, actorId: string | null) {
  await db
    .insertInto("automation_definitions")
    .values({
      automation_id: automationId,
      draft: JSON.stringify(emptyAutomation()),
      webhook_secret: newWebhookSecret(),
      updated_by: actorId,
    })
    .onConflict((oc) => oc.column("automation_id").doNothing())
    .execute();
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function readDraft(db: Db, automationId: string): Promise<Draft> {
  const d = await definitionsOf(db, automationId);
  return {
    definition: d.draft,
    revision: d.revision,
    publishedVersion: d.automation.published_version,
    hasChanges: !same(d.draft, d.published),
    webhookPath: `/hooks/automations/${automationId}/${d.webhookSecret}`,
  };
}

/**
 * Saves the draft (checked by its schema and structure: 400 per field otherwise); 409 when
 * `revision` is given and someone saved since.
 */
export async function saveDraft(
  db: Kysely<Database>,
  automationId: string,
  definition: unknown,
  revision: number | undefined,
  actorId: string,
): Promise<Draft> {
  const problems = draftProblems(definition);
  if (problems.length) throw invalid(problems);
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom("automations").select("id").where("id", "=", automationId).forUpdate().execute();
    const current = await definitionsOf(trx, automationId);
    if (revision !== undefined && revision !== current.revision)
      throw conflict(
        "Someone saved this automation since you opened it: reload to see their changes, or save again to overwrite them",
      );
    await trx
      .updateTable("automation_definitions")
      .set((eb) => ({
        draft: JSON.stringify(definition),
        revision: eb("revision", "+", 1),
        updated_at: new Date(),
        updated_by: actorId,
      }))
      .where("automation_id", "=", automationId)
      .execute();
    await trx
      .updateTable("automations")
      .set({ updated_at: new Date(), updated_by: actorId })
      .where("id", "=", automationId)
      .execute();
    return readDraft(trx, automationId);
  });
}

/**
 * Publishes the draft as the next version: 400 with each node's problem when it cannot run,
 * 409 when it is the published one already. A draft automation becomes active; a paused one
 * stays paused. `afterPublish` runs in the transaction (the schedule trigger's next job).
 */
export async function publish(
  db: Kysely<Database>,
  automationId: string,
  actorId: string,
  afterPublish: (trx: Transaction<Database>, definition: AutomationDefinition) => Promise<void>,
): Promise<{ version: number; status: string }> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom("automations").select("id").where("id", "=", automationId).forUpdate().execute();
    const d = await definitionsOf(trx, automationId);
    const problems = publishProblems(d.draft);
    if (problems.length) throw invalid(problems);
    if (d.published && same(d.draft, d.published))
      throw conflict("Nothing to publish: the draft is the published version");
    const version = (d.automation.published_version ?? 0) + 1;
    const status = d.automation.status === "draft" ? "active" : d.automation.status;
    await addVersion(trx, {
      resource: VERSIONS_RESOURCE,
      recordId: automationId,
      number: version,
      kind: "publish",
      data: d.draft,
      actorId,
    });
    await trx
      .updateTable("automation_definitions")
      .set({ published: JSON.stringify(d.draft), updated_at: new Date(), updated_by: actorId })
      .where("automation_id", "=", automationId)
      .execute();
    await trx
      .updateTable("automations")
      .set({
        published_version: version,
        published_at: new Date(),
        trigger_kind: d.draft.trigger.kind,
        status,
        updated_at: new Date(),
        updated_by: actorId,
      })
      .where("id", "=", automationId)
      .execute();
    await afterPublish(trx, d.draft);
    return { version, status };
  });
}

/** Replaces the webhook's secret: the old address answers 404 from now on. */
export async function rotateWebhookSecret(db: Db, automationId: string, actorId: string): Promise<Draft> {
  await definitionsOf(db, automationId);
  await db
    .updateTable("automation_definitions")
    .set({ webhook_secret: newWebhookSecret(), updated_at: new Date(), updated_by: actorId })
    .where("automation_id", "=", automationId)
    .execute();
  return readDraft(db, automationId);
}

export async function versions(db: Db, automationId: string): Promise<VersionSummary[]> {
  await definitionsOf(db, automationId);
  return listVersions(db, VERSIONS_RESOURCE, automationId);
}

export async function version(db: Db, automationId: string, number: number) {
  const found = await getVersion(db, VERSIONS_RESOURCE, automationId, number);
  if (!found) throw notFound("Version not found");
  return found;
}

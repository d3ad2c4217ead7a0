/**
 * Restoring from a record's history (issue 31): one field to its value before an entry, or
 * the whole record to what it was before an entry (each field the entry or a later one changed
 * takes the value it had just before the entry). The restore is an ordinary update through the
 * resource's service (validated as a route's body, the rules, the constraints' words), in a
 * transaction, so it is recorded in the history like any other change (`restore`).
 */
import { type FieldError, fieldTitle, invalidInputMessage } from "../../../schemas/error-messages";
import type { AppContext } from "../../context";
import { badRequest, notFound } from "../../http/errors";
import type { Row } from "../records";
import type { AnyDb } from "../rules";
import type { ResourceService } from "../service";
import { entriesSince } from "./read";
import { isSecretField } from "./writer";

export async function restoreFromHistory(
  ctx: AppContext,
  service: ResourceService,
  recordId: string,
  entryId: string,
  field: string | undefined,
  actorId: string,
): Promise<Row> {
  const db = ctx.db as unknown as AnyDb;
  const schema = await service.schemaNow();
  const wordsOf = (name: string) => fieldTitle(schema, name);
  const entries = await entriesSince(db, service.def.name, recordId, entryId);
  const [entry] = entries;
  if (!entry || entry.id !== entryId) throw notFound("History entry not found");
  if (entry.action === "created")
    throw badRequest(
      "This entry is the record's creation: it has no earlier value to restore",
      field
        ? [{ field, message: `${wordsOf(field)} had no value before the record was created` }]
        : undefined,
    );
  if (entries.some((e) => e.action === "deleted"))
    throw badRequest(`This ${service.def.singular.toLowerCase()} was deleted: it cannot be restored here`);
  // Throws 404 when the record is gone.
  await service.get(recordId);
  const body: Row = {};
  const problems: FieldError[] = [];
  if (field !== undefined) {
    if (!Object.hasOwn(entry.changes, field)) {
      const details = [{ field, message: `${fieldTitle(schema, field)} did not change in this entry` }];
      throw badRequest(invalidInputMessage(details), details);
    }
    body[field] = entry.changes[field][0];
  } else {
    // Oldest first: a field's value before the entry is the `from` of the first change to it.
    for (const e of entries)
      for (const [name, [from]] of Object.entries(e.changes)) if (!(name in body)) body[name] = from;
  }
  for (const name of Object.keys(body)) {
    const definition = schema.properties[name];
    const problem = !definition
      ? "no longer exists, so its earlier value cannot be restored"
      : definition.readOnly
        ? "is set by the system and cannot be restored"
        : isSecretField(name, definition)
          ? "is secret: its values are not kept"
          : null;
    if (!problem) continue;
    // Restoring the whole record leaves the fields it cannot set as they are; one field is refused.
    if (field !== undefined)
      problems.push({ field: name, message: `${fieldTitle(schema, name)} ${problem}` });
    delete body[name];
  }
  if (problems.length) throw badRequest(invalidInputMessage(problems), problems);
  if (!Object.keys(body).length) throw badRequest("Nothing in this entry can be restored");

  return ctx.db
    .transaction()
    .execute((trx) =>
      service.update(recordId, body, actorId, { db: trx as unknown as AnyDb, actorId, actor: "restore" }),
    );
}

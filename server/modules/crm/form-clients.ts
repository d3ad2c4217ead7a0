/**
 * Form answers become clients (issue 16, "Form data → clients"): an answer with an email
 * address creates the client of that address, or updates the one there is (one client per
 * address, whatever its case); the first campaign that brought them is kept, every later one
 * is a timeline entry of its own with its UTM; and the form may enrol them in a sequence.
 * Runs inside the submissions' own transaction (SubmissionWriter.onStored), so a client is
 * made exactly when the answer is stored.
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { answerText, isEmailAddress } from "../../../schemas/form-answers";
import { crmFieldsOf, defaultCrmSettings, type FormFieldDef } from "../../../schemas/form-definition";
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";
import type { Db as RunDb } from "../../runs";
import { clientsCreated } from "../automation/crm-events";
import type { StoredForHooks } from "../forms/submission-writer";
import { addTimeline, type Db, timelineChanged } from "./timeline";

const PHONE = /^\+[1-9][0-9]{6,14}$/;
const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

/** Enrols clients in a sequence (the sequences' service, set when that module starts). */
export type Enrol = (
  trx: Db,
  input: { sequenceId: string; clientIds: string[]; source: string },
) => Promise<void>;

interface ClientOfAnswer {
  submission: StoredForHooks;
  email: string;
  name: string;
  phone: string | null;
  company: string | null;
  firstTouch: string | null;
  utm: Record<string, string>;
}

const text = (field: FormFieldDef | undefined, answers: Record<string, unknown>) => {
  if (!field || !Object.hasOwn(answers, field.id)) return "";
  return answerText(field, answers[field.id]).trim();
};

/** The client an answer names, or null when it has no usable email address. */
export function clientOfAnswer(submission: StoredForHooks): ClientOfAnswer | null {
  const { definition } = submission.form;
  if (!(definition.settings.crm ?? defaultCrmSettings()).createClients) return null;
  const fields = crmFieldsOf(definition.fields, definition.settings.crm);
  const email = text(fields.email, submission.answers).toLowerCase();
  if (!email || !isEmailAddress(email) || email.length > 254) return null;
  const whole = text(fields.name, submission.answers);
  const parts = [text(fields.firstName, submission.answers), text(fields.lastName, submission.answers)];
  const name = (whole || parts.filter(Boolean).join(" ") || email.split("@")[0]).slice(0, 160);
  const phone = text(fields.phone, submission.answers).replace(/[\s()-]/g, "");
  const company = text(fields.company, submission.answers).slice(0, 160);
  const { parameters, firstTouch } = submission.tracking;
  const utm: Record<string, string> = {};
  for (const k of UTM_KEYS) if (parameters[k]) utm[k] = parameters[k];
  // The visitor's first visit when the embed remembered it, else this answer's own campaign.
  const first = firstTouch?.parameters ?? parameters;
  const touch = ["utm_source", "utm_medium", "utm_campaign"].map((k) => first[k]).filter(Boolean);
  return {
    submission,
    email,
    name,
    phone: PHONE.test(phone) ? phone : null,
    company: company || null,
    firstTouch: touch.length ? touch.join(" / ").slice(0, 300) : null,
    utm,
  };
}

export function formClients(ctx: AppContext, enrol: () => Enrol | undefined) {
  return async (trx: AnyDb, stored: StoredForHooks[]) => {
    const db = trx as unknown as Db;
    // In address order: two batches upserting the same clients lock them in one order.
    const answers = stored
      .map(clientOfAnswer)
      .filter((c): c is ClientOfAnswer => c !== null)
      .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
    if (!answers.length) return undefined;
    const created: string[] = [];
    const updated: string[] = [];
    const clientOf = new Map<StoredForHooks, string>();
    // One row an address (a statement may not update a row twice): the batch's first answer
    // names the client, and each of phone, company and first visit is the first one given, as
    // answers stored one by one would leave them.
    const byEmail = new Map<string, ClientOfAnswer>();
    for (const a of answers) {
      const first = byEmail.get(a.email);
      if (!first) byEmail.set(a.email, { ...a });
      else {
        first.phone ??= a.phone;
        first.company ??= a.company;
        first.firstTouch ??= a.firstTouch;
      }
    }
    const rows = await db
      .insertInto("clients")
      .values(
        [...byEmail.values()].map((a) => ({
          name: a.name,
          email: a.email,
          phone: a.phone,
          company: a.company,
          source: "form",
          tags: "[]",
          first_touch: a.firstTouch,
        })),
      )
      .onConflict((oc) =>
        oc.column("email").doUpdateSet({
          // What the client had stays; an answer only fills what was missing.
          phone: sql`coalesce(clients.phone, excluded.phone)`,
          company: sql`coalesce(clients.company, excluded.company)`,
          first_touch: sql`coalesce(clients.first_touch, excluded.first_touch)`,
          updated_at: sql`now()`,
        }),
      )
      .returning(["id", "email", sql<boolean>`(xmax = 0)`.as("inserted")])
      .execute();
    const idOf = new Map(rows.map((r) => [r.email, r.id]));
    for (const r of rows) (r.inserted ? created : updated).push(r.id);
    for (const a of answers) {
      const clientId = idOf.get(a.email) as string;
      clientOf.set(a.submission, clientId);
      // For the hooks after this one (the automations' events name the answer's client).
      a.submission.clientId = clientId;
    }
    await addTimeline(
      db,
      answers.map((a) => ({
        clientId: clientOf.get(a.submission) as string,
        kind: "form" as const,
        title: `Answered ${a.submission.form.name}`,
        body: a.submission.form.definition.fields
          .filter(
            (f) => f.kind !== "heading" && f.kind !== "hidden" && Object.hasOwn(a.submission.answers, f.id),
          )
          .map((f) => `${f.label}: ${answerText(f, a.submission.answers[f.id])}`)
          .join("\n")
          .slice(0, 10_000),
        data: {
          form: a.submission.form.name,
          formId: a.submission.form.id,
          submissionId: a.submission.id,
          ...a.utm,
        },
        refId: a.submission.id,
        occurredAt: new Date(a.submission.createdAt),
        dedupeKey: `form:${a.submission.id}`,
      })),
    );
    // A client an answer made starts the "client created" automations, as one made by hand does.
    if (created.length) {
      const made = await db
        .selectFrom("clients")
        .selectAll()
        .where("id", "in", created)
        .orderBy("id")
        .execute();
      await clientsCreated(ctx, trx as unknown as RunDb, made);
    }
    const bySequence = new Map<string, string[]>();
    for (const a of answers) {
      const sequenceId = a.submission.form.definition.settings.crm?.sequenceId;
      if (sequenceId)
        bySequence.set(sequenceId, [...(bySequence.get(sequenceId) ?? []), clientOf.get(a.submission)!]);
    }
    const enrolment = enrol();
    if (enrolment)
      for (const [sequenceId, clientIds] of bySequence)
        await enrolment(db, { sequenceId, clientIds: [...new Set(clientIds)], source: "form" });
    return () => {
      const publish = (type: "created" | "updated", ids: string[]) =>
        ids.length &&
        ctx.events.publish({
          resource: "clients",
          moduleID: MODULE_IDS.crm,
          type,
          ids: [...new Set(ids)],
          actorId: null,
        });
      publish("created", created);
      publish("updated", updated);
      timelineChanged(ctx, [...clientOf.values()], null);
    };
  };
}

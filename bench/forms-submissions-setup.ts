/**
 * One side-by-side setup of the forms submissions bench (bench/forms-submissions.ts): the sink
 * (webhook receiver, SMTP when asked) in its own process, the real app on the driver's
 * database with the per-address limit raised and loopback targets allowed, the form made and
 * published through the admin API with its webhook, a probe submission with the statements it
 * sends, the floor in its own process; and, after the load, what was stored against what was
 * acknowledged.
 */
import { sql } from "kysely";
import { contactForm } from "../tests/server/forms-fixtures";
import type { Cleanup } from "./bench-run";
import { type Api, apiOf } from "./cms-public-setup";
import {
  type FormsFloorProcess,
  floorPath,
  type Received,
  type SinkProcess,
  sinkReceived,
  startFormsFloor,
  startSinkProcess,
} from "./forms-submissions-floor";
import { captureStatements } from "./resource-engine-capture";
import { type Driver, env, FORM_SLUG, PGLITE_IN_MEMORY } from "./resource-engine-settings";
import { type StartedApp, signIn, startApp } from "./resource-engine-setup";

export const SLUG = FORM_SLUG;
export const submitPath = `/forms/f/${SLUG}/submissions`;
export { floorPath };
/** Start of every respondent's name; the notification's subject is "New lead from {{name}}". */
export const NAME_PREFIX = "bench";
/** A submission's body: `answers.name` is made unique per request by the load child. */
export const submissionBody = {
  answers: { name: NAME_PREFIX, email: "x@example.com" },
  tracking: { parameters: { utm_source: "bench" } },
};
/** Mails go to a loopback SMTP server too (BENCH_FORMS_SMTP=1); by default they stay stored in the outbox. */
export const SMTP = env.BENCH_FORMS_SMTP === "1";
/** Seconds to wait after the load for webhook deliveries (and mails) to go out before counting. */
export const DRAIN = Number(env.BENCH_FORMS_DRAIN || 30);
/**
 * The form's webhook made inactive (BENCH_FORMS_WEBHOOK=0): what the answers cost without their
 * deliveries, to tell the two apart. Not the bench's figure: the default keeps it active.
 */
export const WEBHOOK = env.BENCH_FORMS_WEBHOOK !== "0";

/** Both sides of one driver, ready to be loaded. */
export interface FormSides {
  app: StartedApp;
  formId: string;
  hookId: string;
  sink: SinkProcess;
  floor: FormsFloorProcess;
  /** When the floor's process was forked, in seconds of this process's uptime (for --cpu-prof windows). */
  floorForkedAt: number;
  /** The probe's id: stored and acknowledged before the load. */
  probeId: string;
}

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * Through the admin API: the contact form (tests/server/forms-fixtures.ts) as SLUG, published.
 * Shared with the engine bench's submissions list (bench/module-lists-setup.ts).
 */
export async function makeContactForm(api: Api) {
  const form = await api<{ id: string }>("POST", "/forms/forms", { name: "Bench contact", slug: SLUG });
  const { revision } = await api<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`);
  await api("PUT", `/forms/forms/${form.id}/draft`, { definition: contactForm(), revision });
  const published = await api<{ version: number }>("POST", `/forms/forms/${form.id}/publish`, {});
  return { form, published };
}

/** Starts both sides and the sink for `driver`, registering their cleanups; null when the driver is unavailable. */
export async function startFormSides(driver: Driver, cleanups: Cleanup[]): Promise<FormSides | null> {
  const sink = await startSinkProcess({ smtp: SMTP });
  cleanups.push(() => sink.stop());
  const app = await startApp(driver, cleanups, {
    FORMS_RATE_LIMIT: "1000000000",
    OUTBOUND_ALLOW_PRIVATE: "true",
    ...(sink.ready.smtpUrl ? { SMTP_URL: sink.ready.smtpUrl } : {}),
  });
  if (!app) return null;
  const api = apiOf(app.url, await signIn(app.url));

  const tSeed = Date.now();
  const { form, published } = await makeContactForm(api);
  const hook = await api<{ id: string }>("POST", "/forms/webhooks", {
    name: "Bench receiver",
    url: `${sink.ready.url}/hook`,
    events: ["submission.created"],
    active: WEBHOOK,
  });
  const seedSeconds = (Date.now() - tSeed) / 1000;

  const tFloor = Date.now();
  const floorForkedAt = process.uptime();
  const floor = await startFormsFloor({ databaseUrl: app.databaseUrl, inMemory: PGLITE_IN_MEMORY });
  cleanups.unshift(() => floor.stop());
  const floorSeconds = (Date.now() - tFloor) / 1000;

  // One submission through each side (and the statements the app's sends), before the load.
  const capture = captureStatements();
  const probe = await post(`${app.url}${submitPath}`, {
    ...submissionBody,
    answers: { ...submissionBody.answers, name: `${NAME_PREFIX}-probe` },
  });
  const statements = capture.stop();
  if (probe.status !== 201) throw new Error(`probe submission: ${probe.status} ${probe.text}`);
  const floorProbe = await post(`${floor.ready.url}${floorPath}`, submissionBody);
  if (floorProbe.status !== 201) throw new Error(`floor probe: ${floorProbe.status} ${floorProbe.text}`);

  console.log(`\n=== ${driver}: ${app.where}`);
  console.log(
    `made through the admin API in ${seedSeconds.toFixed(1)} s: form "${SLUG}" (6 fields, notification mail to 1 + Cc 1 + Bcc 1) ` +
      `published as version ${published.version}, a webhook on submission.created to ${sink.ready.url}/hook; ` +
      `mails ${SMTP ? `sent to ${sink.ready.smtpUrl}` : "stored in the outbox (no SMTP_URL; BENCH_FORMS_SMTP=1 sends them)"}`,
  );
  console.log(`floor ready in ${floorSeconds.toFixed(1)} s: ${floor.ready.where}`);
  console.log(
    `statements while one submission is answered (a batch of 1, under load a batch carries many; then the job queue ` +
      `starting its delivery, when it runs meanwhile): ${statements.length}`,
  );
  for (const s of statements) console.log(`    ${s.length > 150 ? `${s.slice(0, 147)}...` : s}`);

  return {
    app,
    formId: form.id,
    hookId: hook.id,
    sink,
    floor,
    floorForkedAt,
    probeId: (JSON.parse(probe.text) as { id: string }).id,
  };
}

/** What was stored of a run, against what was acknowledged (201). */
export interface StoredCheck {
  acknowledged: number;
  /** Acknowledged ids not in form_submissions. */
  lost: number;
  /** Rows of the form in form_submissions. */
  stored: number;
  /** Notification mails in the outbox (subject "New lead from bench…"), by status. */
  mails: Record<string, number>;
  /** Deliveries of the webhook, by state. */
  deliveries: Record<string, number>;
  received: Received;
  /** Seconds waited after the load for deliveries to go out. */
  waited: number;
}

const byState = (rows: Array<{ state: string; n: number | string }>) =>
  Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, n) => a + n, 0);

/**
 * Waits (DRAIN s at most) for the webhook deliveries and mails to go out, then counts what was
 * stored: the form's submissions, whether every acknowledged id is among them, the notification
 * mails and the webhook deliveries.
 */
export async function checkStored(
  sides: FormSides,
  acknowledgedIds: readonly string[],
): Promise<StoredCheck> {
  const { db } = sides.app.database;
  const t0 = Date.now();
  const pending = async () => {
    const r = await sql<{ n: number | string }>`
      select (select count(*) from webhook_deliveries where webhook_id = ${sides.hookId} and state = 'pending')
           + (select count(*) from mail_outbox where status = 'pending') as n`.execute(db);
    return Number(r.rows[0].n);
  };
  await new Promise((r) => setTimeout(r, 500)); // requests in flight when the load ended: let their batch commit
  while ((await pending()) > 0 && Date.now() - t0 < DRAIN * 1000)
    await new Promise((r) => setTimeout(r, 500));
  const waited = (Date.now() - t0) / 1000;

  const stored = await sql<{ n: number | string }>`
    select count(*) as n from form_submissions where form_id = ${sides.formId}`.execute(db);
  const found = await sql<{ n: number | string }>`
    select count(*) as n from form_submissions
     where id in (select jsonb_array_elements_text(${JSON.stringify(acknowledgedIds)}::jsonb)::uuid)`.execute(
    db,
  );
  const mails = await sql<{ state: string; n: number | string }>`
    select status as state, count(*) as n from mail_outbox
     where subject like ${`New lead from ${NAME_PREFIX}%`} group by status`.execute(db);
  const deliveries = await sql<{ state: string; n: number | string }>`
    select state, count(*) as n from webhook_deliveries where webhook_id = ${sides.hookId} group by state`.execute(
    db,
  );
  return {
    acknowledged: acknowledgedIds.length,
    lost: acknowledgedIds.length - Number(found.rows[0].n),
    stored: Number(stored.rows[0].n),
    mails: byState(mails.rows),
    deliveries: byState(deliveries.rows),
    received: await sinkReceived(sides.sink),
    waited,
  };
}

/** The check's lines, as printed. */
export function describeCheck(c: StoredCheck): string[] {
  const states = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ") || "none";
  const mails = total(c.mails);
  const deliveries = total(c.deliveries);
  const equal = (n: number) => (n === c.stored ? "= stored" : `≠ stored (${n - c.stored})`);
  const hooks = WEBHOOK
    ? `${deliveries} ${equal(deliveries)}`
    : `${deliveries} (the webhook is inactive: BENCH_FORMS_WEBHOOK=0)`;
  return [
    `acknowledged (201, warm-up and probe included) ${c.acknowledged}; stored ${c.stored} ` +
      `(${c.stored - (c.acknowledged - c.lost)} more: in flight when a load run ended, stored, answer not awaited); lost: ${c.lost}`,
    `notification mails in the outbox ${mails} ${equal(mails)} (${states(c.mails)}); webhook deliveries ${hooks} (${states(c.deliveries)})`,
    `received by the sink ${c.waited.toFixed(0)} s after the load: ${c.received.hooks} webhook calls, ${c.received.mails} mails`,
  ];
}

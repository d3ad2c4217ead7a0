/**
 * Every screen passes an axe-core scan with no serious or critical violation (issue 13): the
 * signed-out screens, every discovered resource's list, create, show and edit screens, the
 * hand-written screens (home, users, account, devices, security log, outbox, DAM, PDF library,
 * a PDF's hotspot editor, analytics), the public catalogue viewer, form and proposal, and the
 * new modules' own screens, tabs and dialogs (issue 27: the CMS builder and entries, the form's
 * tabs, the CRM board, client dialogs, calendar and sequences, the automation's runs, the
 * store's proposals). A violation is printed with its rule, where it is and axe's help, so the
 * failure says what to fix.
 *
 * In the same pass each screen is checked for what a person must never meet (screen-checks.ts):
 * a console or uncaught error, "undefined", "NaN", "[object Object]" or an error code shown.
 *
 * Fast by design (the suite has a time budget): one page for the whole file, signed in once;
 * each screen is reached inside the app as a link would (no reload), and scanned as soon as
 * its own heading is up and nothing on it is loading.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { canCreate, type ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { baseType, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { type CustomField, withCustomFields } from "../../schemas/custom-fields";
import { recordPath, resourceRoutes } from "../../src/resources/routes";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { type ModuleData, publicProposal, type Seeded, seedModules } from "./a11y-seed";
import { type ApiSession, apiSession, E2E_ORIGIN, navigateInApp, signIn } from "./helpers";
import { processedPdf, type UploadedPdf, uploadPdf } from "./pdf-helpers";
import { visibleSlips, watchErrors } from "./screen-checks";

// A cap for a stuck run, not a timing check: the catalogue is processed before the first scan.
test.describe.configure({ timeout: 600_000 });

/** What marks a screen as the one asked for, once it is drawn: within its <main>. */
type Ready = (main: Locator) => Locator;

/** What opens a dialog or drawer on the screen reached, when that is what is scanned. */
type Open = (page: Page) => Promise<void>;

/**
 * A screen to scan: its name in the report, its path under /manage (or a full URL), its mark,
 * and what opens it when it is a dialog on that path.
 */
type Screen = [name: string, path: string, ready: Ready, open?: Open];

const heading =
  (name: string | RegExp): Ready =>
  (main) =>
    main.getByRole("heading", { name, exact: true });
const text =
  (words: string): Ready =>
  (main) =>
    main.getByText(words, { exact: true });

/** Serious and critical violations of the page as it is now, in words. */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page })
    // axe.run() in the page itself. The default runs axe in each frame, then opens a blank page
    // to put the results together: about twice the time, for cross-origin frames these
    // screens do not have (the viewer's only frames are in its hotspot dialogs, shut here).
    .setLegacyMode()
    // Only the violations are wanted: axe then skips writing out every node that passes.
    .options({ resultTypes: ["violations"] })
    .analyze();
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          // The element's start too: a target such as "span:nth-child(2)" alone does not say which.
          `${v.impact} ${v.id} at ${n.target.join(" ")} ${n.html.slice(0, 160)}: ${v.help} (${v.helpUrl})`,
      ),
    );
}

/** Loading spinners and skeletons shown anywhere on the page (a hidden tab's do not count). */
const loading = (page: Page) =>
  page.locator(".ant-spin-spinning, .ant-skeleton-active").filter({ visible: true });

/** The console and uncaught errors of the page, taken screen by screen. */
let errors: ReturnType<typeof watchErrors>;

/**
 * Goes to `path` inside the app already open (a full URL is loaded instead), waits until the
 * screen before it is gone, this one's mark is up and nothing is loading, then scans it and
 * reads it for slips. A dialog on the same path as the screen before is opened there, the
 * dialog before it shut first. Returns the screen's violations and slips, labelled by the screen.
 */
async function scan(page: Page, [name, path, ready, open]: Screen, before?: Screen): Promise<string[]> {
  const main = page.locator("main");
  if (before?.[1] === path && open) {
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog"), `${name}: ${before[0]} is shut`).toHaveCount(0);
  } else {
    if (path.startsWith("http")) await page.goto(path);
    else await navigateInApp(page, `/manage${path}`);
    if (before) await expect(before[2](main), `${name}: ${before[0]} is gone`).toHaveCount(0);
  }
  await open?.(page);
  // A cap for a stuck screen, not a timing check: a busy machine loads a screen's code slowly.
  await expect(ready(main), `${name}: the screen is drawn`).toBeVisible({ timeout: 60_000 });
  await expect(loading(page), `${name}: loaded`).toHaveCount(0, { timeout: 60_000 });
  const found = [...(await violations(page)), ...(await visibleSlips(page)), ...errors.take()];
  return found.map((v) => `${name} (${path}): ${v}`);
}

/** Scans each screen and fails with every violation and slip found, listed. */
async function expectNoViolations(page: Page, screens: Screen[]) {
  errors.take();
  const found: string[] = [];
  for (const [i, screen] of screens.entries()) found.push(...(await scan(page, screen, screens[i - 1])));
  console.log(
    found.length
      ? found.join("\n")
      : `${screens.length} screens, no serious or critical violation, error or slip`,
  );
  expect(found).toEqual([]);
}

/** What a sample value may point at: records made so far, and each option list's first offered value. */
interface Samples {
  made: Map<string, Seeded>;
  options: Map<string, string>;
}

/** A value a field accepts, for a record made only to be looked at. */
function sampleValue(name: string, field: FieldSchema, { made, options }: Samples): unknown {
  const relation = field["x-relation"];
  if (relation) return made.get(relation.resource)?.id;
  // An admin-managed list (a stage, a source): a value must be one of its options.
  const list = field["x-options"];
  if (list) return baseType(field) === "array" ? [options.get(list)] : options.get(list);
  if (field.enum) return field.enum[0];
  if (field.format === "email") return `a11y-${name.replace(/[^a-z0-9]/g, "")}${Date.now()}@example.com`;
  if (field.format === "uri") return "https://example.com/a11y";
  if (field.format === "date") return "2024-03-05";
  if (field.format === "date-time") return "2024-03-05T10:00:00Z";
  if (field.format === "time") return "10:00";
  switch (baseType(field)) {
    case "integer":
    case "number":
      return Math.max(field.minimum ?? 1, 1);
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      // A field with a pattern (a SKU code, a domain key): lower-case letters and digits fit them all.
      return (
        field.pattern
          ? `a11y${name.replace(/[^a-z0-9]/g, "")}${Date.now()}`
          : `A11y${name.replace(/[^A-Za-z0-9]/g, "")}${Date.now()}`
      ).slice(0, field.maxLength ?? 60);
  }
}

/**
 * A resource's schema as its server checks it now: with the custom fields admins added to an
 * `x-custom` resource (a required one must be in the body too).
 */
async function liveSchema(admin: ApiSession, def: ResourceDefinition): Promise<EntitySchema> {
  if (!def.schema["x-custom"]) return def.schema;
  const { data } = await admin.expect<{ data: CustomField[] }>("GET", "/crm/custom-fields", 200);
  return withCustomFields(def.schema, data);
}

/** The first offered (not archived) value of each admin-managed option list. */
async function offeredOptions(admin: ApiSession): Promise<Map<string, string>> {
  const options = new Map<string, string>();
  if (!RESOURCES.some((r) => r.name === "dropdowns")) return options;
  for (let page = 1; ; page++) {
    const { data, total } = await admin.expect<{
      data: { list: string; value: string; archived: boolean }[];
      total: number;
    }>("GET", `/crm/dropdowns?pageSize=200&page=${page}&sort=list,position`, 200);
    for (const o of data) if (!o.archived && !options.has(o.list)) options.set(o.list, o.value);
    if (page * 200 >= total) return options;
  }
}

/**
 * One record of each resource that can be created, its relations pointing at records made
 * before it (resources are tried until each one's related records exist). The users are not a
 * generated resource: a relation to them points at the signed-in admin.
 */
async function seedRecords(admin: ApiSession): Promise<Map<string, Seeded>> {
  const made = new Map<string, Seeded>([
    ["users", { id: admin.user.userID, label: `${admin.user.first_name} ${admin.user.last_name}` }],
  ]);
  const samples: Samples = { made, options: await offeredOptions(admin) };
  const pending = RESOURCES.filter(canCreate);
  for (let round = 0; round < pending.length + 1 && pending.length; round++) {
    for (const def of [...pending]) {
      const schema = await liveSchema(admin, def);
      const fields = Object.entries(schema.properties).filter(([, f]) => !f.readOnly);
      // A relation to its own resource (a product's "Variant of") is left out: none exists yet.
      const related = (f: (typeof fields)[number][1]) =>
        f["x-relation"] && f["x-relation"].resource !== def.name ? f["x-relation"].resource : null;
      const needs = fields.flatMap(([, f]) => related(f) ?? []);
      if (needs.some((r) => !made.has(r))) continue;
      const scoped = fields.find(([, f]) => f["x-relation"]?.within);
      const body = Object.fromEntries(
        fields
          .filter(([name, f]) => schema.required.includes(name) || related(f))
          .map(([name, f]) => [name, sampleValue(name, f, samples)]),
      );
      // A scoped relation (a sub-category within a category) must agree with its scope.
      if (scoped) {
        const [name, f] = scoped;
        const within = f["x-relation"]?.within as string;
        const target = made.get(f["x-relation"]?.resource as string)?.id;
        const related = await admin.expect<Record<string, unknown>>(
          "GET",
          `/api/${f["x-relation"]?.resource}/${target}`,
          200,
        );
        body[within] = related[within];
        body[name] = target;
      }
      const record = await admin.expect<Record<string, unknown>>(
        "POST",
        `/${def.base}/${def.name}`,
        201,
        body,
      );
      made.set(def.name, { id: String(record.id), label: String(record[schema["x-label"]]) });
      pending.splice(pending.indexOf(def), 1);
    }
  }
  expect(
    pending.map((d) => d.name),
    "resources whose sample record could not be made",
  ).toEqual([]);
  return made;
}

/** Uploads a 2-page catalogue, waits until it is processed and publishes it. */
async function readyCatalogue(admin: ApiSession): Promise<UploadedPdf> {
  const uploaded = await uploadPdf(admin, "a11y.pdf", await makeCataloguePdf({ pages: 2, photos: false }));
  const pdf = await processedPdf(admin, uploaded.id);
  expect(pdf.pdflist_status, pdf.error_message ?? "").toBe("ready");
  await admin.expect("PATCH", `/api/pdfs/${pdf.id}`, 200, { pdfstatus: true });
  return pdf;
}

test.describe("accessibility", () => {
  let page: Page;
  let signedIn = false;
  let admin: ApiSession["user"];
  let pdf: UploadedPdf;
  let records: Map<string, Seeded>;
  let modules: ModuleData;

  test.beforeAll(async ({ browser, request }) => {
    const session = await apiSession(request);
    admin = session.user;
    pdf = await readyCatalogue(session);
    records = await seedRecords(session);
    modules = await seedModules(session, records);
    // A context of its own (axe-core's builder refuses a page from browser.newPage()).
    page = await (await browser.newContext()).newPage();
    errors = watchErrors(page);
  });

  test.afterAll(async () => {
    await page?.context().close();
  });

  /** The page, signed in as the admin (once for the file). */
  async function adminPage(): Promise<Page> {
    if (!signedIn) await signIn(page);
    signedIn = true;
    return page;
  }

  test("the signed-out screens and the public catalogue viewer, form and proposal", async () => {
    const form = records.get("forms")?.label as string;
    await expectNoViolations(page, [
      ["Sign in", `${E2E_ORIGIN}/manage/login`, heading("Sign in")],
      ["Forgot password", "/password_reset", heading("Forgot password")],
      ["Not found", "/404", text("Page not found")],
      ["Catalogue viewer", `${E2E_ORIGIN}/view/${pdf.slug}`, (main) => main.page().locator("img").first()],
      [
        "Public form",
        `${E2E_ORIGIN}/forms/f/${modules.formSlug}?utm_source=a11y`,
        (main) => main.page().getByRole("heading", { name: form }),
      ],
      [
        "Public proposal",
        publicProposal(modules.proposal.token),
        (main) => main.page().getByRole("heading", { name: modules.proposal.label }),
      ],
    ]);
  });

  test("the hand-written screens", async () => {
    const name = `${admin.first_name} ${admin.last_name}`;
    await expectNoViolations(await adminPage(), [
      ["Home", "/", heading(/^Welcome, /)],
      ["Users", "/users", heading("Users")],
      ["New user", "/users/create", heading("Create user")],
      ["User", `/users/show/${admin.userID}`, heading(name)],
      ["Edit user", `/users/edit/${admin.userID}`, heading(`Edit ${name}`)],
      ["Account", "/account", text("My account")],
      ["My devices", "/account/devices", text("My devices")],
      ["Security log", "/users/security-log", heading("Security log")],
      ["Mail outbox", "/outbox", heading("Mail outbox")],
      ["Digital assets", "/dam", heading("All assets")],
      ["Analytics", "/analytics", heading("Analytics")],
      ["Content types", "/cms/content-types", text("Types")],
      ["Media library", "/cms/media", text("Media library")],
      ["Navigations", "/cms/navigations", text("Navigations")],
      ["Webhooks", "/cms/webhooks", text("Webhooks")],
      ["Online store", "/store", text("Connected stores")],
      // The canvas and its sidebar, once loaded (the record's screen is checked below at its heading).
      [
        "Automation builder",
        `/automation/automations/show/${records.get("automations")?.id}`,
        text("Build the flow"),
      ],
    ]);
  });

  test("the new modules' own screens, tabs and dialogs", async () => {
    const dialog =
      (name: string | RegExp): Ready =>
      (main) =>
        main.page().getByRole("dialog", { name });
    const click =
      (name: string): Open =>
      (page) =>
        page.locator("main").getByRole("button", { name, exact: true }).click({ timeout: 60_000 });
    const tab =
      (name: string | RegExp): Ready =>
      (main) =>
        main.getByRole("tab", { name, selected: true });
    const { type, entry, proposal, runId } = modules;
    const entries = `/cms/entries/${type.apiName}`;
    const client = records.get("clients") as Seeded;
    const clientPage = `/crm/clients/show/${client.id}`;
    const form = `/forms/forms/show/${records.get("forms")?.id}`;
    const automation = `/automation/automations/show/${records.get("automations")?.id}`;
    await expectNoViolations(await adminPage(), [
      ["Content type builder", `/cms/content-types?type=${type.apiName}`, heading(type.name)],
      ["Entries", entries, text(entry.label)],
      ["New entry", `${entries}/create`, heading(`Create ${type.name.toLowerCase()}`)],
      ["Entry", `${entries}/show/${entry.id}`, heading(entry.label)],
      ["Edit entry", `${entries}/edit/${entry.id}`, heading(`Edit ${entry.label}`)],
      ["Form settings", `${form}?tab=settings`, tab("Settings")],
      ["Form submissions", `${form}?tab=submissions`, tab("Submissions")],
      ["Form insights", `${form}?tab=insights`, tab("Insights")],
      ["Forms webhooks", "/forms/webhooks", text("Webhooks")],
      ["CRM clients", "/crm", tab("Clients")],
      ["CRM board", "/crm?tab=2", tab("Opportunities")],
      ["Client page", clientPage, heading(client.label)],
      ["Email dialog", clientPage, dialog(`Email ${client.label}`), click("Email")],
      ["SMS dialog", clientPage, dialog(`SMS to ${client.label}`), click("SMS")],
      ["Meeting dialog", clientPage, dialog(`Book a meeting with ${client.label}`), click("Book meeting")],
      ["Calendar", "/crm/calendar", text("Calendar")],
      ["Custom fields", "/crm/custom-fields", text("Custom fields")],
      ["SMS outbox", "/crm/sms-outbox", heading("SMS outbox")],
      [
        "Sequence enrolments",
        `/crm/sequences/show/${records.get("sequences")?.id}?tab=enrolments`,
        tab("Enrolments"),
      ],
      // The run's drawer opens over the Runs tab, which stays: it comes first, so the screen
      // before each one is gone when the next is scanned.
      ["Run detail", `${automation}?run=${runId}`, dialog(/^Run of /)],
      ["Automation runs", `${automation}?tab=runs`, tab(/^Runs/)],
      ["Automation versions", `${automation}?tab=versions`, tab("Versions")],
      ["Sent proposal", `/store/proposals/show/${proposal.id}`, heading(proposal.label)],
      ["Connect a store", "/store", dialog("Connect a BigCommerce store"), click("Connect a store")],
    ]);
  });

  test("every resource's list, create, show and edit screens", async () => {
    const screens: Screen[] = [];
    for (const def of RESOURCES as ResourceDefinition[]) {
      const routes = resourceRoutes(def);
      screens.push([`${def.label} list`, routes.list, heading(def.label)]);
      if (canCreate(def)) {
        screens.push([`New ${def.singular}`, routes.create, heading(`Create ${def.singular.toLowerCase()}`)]);
      }
      const record = def.name === "pdfs" ? { id: pdf.id, label: pdf.name } : records.get(def.name);
      expect(record, `a record of ${def.name} to look at`).toBeTruthy();
      const { id, label } = record as Seeded;
      // A PDF's show screen is its hotspot editor.
      screens.push([`${def.singular} record`, recordPath(def, "show", id), heading(label)]);
      screens.push([`Edit ${def.singular}`, recordPath(def, "edit", id), heading(`Edit ${label}`)]);
    }
    await expectNoViolations(await adminPage(), screens);
  });
});

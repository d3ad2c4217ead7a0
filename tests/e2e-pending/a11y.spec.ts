/**
 * Every screen passes an axe-core scan with no serious or critical violation (issue 13): the
 * signed-out screens, every discovered resource's list, create, show and edit screens, the
 * hand-written screens (home, users, account, devices, security log, outbox, DAM, PDF library,
 * a PDF's hotspot editor, analytics) and the public catalogue viewer. A violation is printed
 * with its rule, where it is and axe's help, so the failure says what to fix.
 */
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { canCreate, type ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { baseType, type FieldSchema } from "../../schemas/contract";
import { recordPath, resourceRoutes } from "../../src/resources/routes";
import { type ApiSession, api, apiSession, apiSignIn, E2E_ORIGIN, signIn } from "../e2e/helpers";
import { makeCataloguePdf } from "../fixtures/make-pdf";

// A cap for a stuck run: axe takes seconds a screen on a busy machine, and the catalogue is processed first.
test.describe.configure({ timeout: 600_000 });

/** Serious and critical violations of the page as it is now, in words. */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map((n) => `${v.impact} ${v.id} at ${n.target.join(" ")}: ${v.help} (${v.helpUrl})`),
    );
}

/**
 * Opens `path` (under /manage unless absolute), waits for `ready` and for the loading spinners
 * to go, then scans it. Returns the screen's violations, labelled by the screen.
 */
async function scan(page: Page, name: string, path: string, ready: (p: Page) => Promise<void>) {
  await page.goto(path.startsWith("http") ? path : path.replace(/^\//, ""));
  await ready(page);
  // Loaded data is what is scanned; a screen still loading after that is scanned as it is.
  await expect(page.locator(".ant-spin-spinning, .ant-skeleton-active"))
    .toHaveCount(0, { timeout: 15_000 })
    .catch(() => undefined);
  return (await violations(page)).map((v) => `${name} (${path}): ${v}`);
}

const heading = (page: Page) => expect(page.getByRole("heading").first()).toBeVisible({ timeout: 60_000 });
const main = (page: Page) => expect(page.locator("main").first()).toBeVisible({ timeout: 60_000 });

/** A value a field accepts, for a record made only to be looked at. */
function sampleValue(name: string, field: FieldSchema, related: Map<string, string>): unknown {
  const relation = field["x-relation"];
  if (relation) return related.get(relation.resource);
  if (field.enum) return field.enum[0];
  if (field.format === "email") return "a11y@example.com";
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
      return `A11y${name.replace(/[^A-Za-z0-9]/g, "")}${Date.now()}`.slice(0, field.maxLength ?? 60);
  }
}

/**
 * One record of each resource that can be created, its relations pointing at records made
 * before it (resources are tried until each one's related records exist).
 */
async function seedRecords(admin: ApiSession): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const pending = RESOURCES.filter(canCreate);
  for (let round = 0; round < pending.length + 1 && pending.length; round++) {
    for (const def of [...pending]) {
      const fields = Object.entries(def.schema.properties).filter(([, f]) => !f.readOnly);
      const needs = fields.flatMap(([, f]) => (f["x-relation"] ? [f["x-relation"].resource] : []));
      if (needs.some((r) => !ids.has(r))) continue;
      const scoped = fields.find(([, f]) => f["x-relation"]?.within);
      const body = Object.fromEntries(
        fields
          .filter(([name, f]) => def.schema.required.includes(name) || f["x-relation"])
          .map(([name, f]) => [name, sampleValue(name, f, ids)]),
      );
      // A scoped relation (a sub-category within a category) must agree with its scope.
      if (scoped) {
        const [name, f] = scoped;
        const within = f["x-relation"]?.within as string;
        const target = await admin.expect<Record<string, unknown>>(
          "GET",
          `/api/${f["x-relation"]?.resource}/${ids.get(f["x-relation"]?.resource as string)}`,
          200,
        );
        body[within] = target[within];
        body[name] = ids.get(f["x-relation"]?.resource as string);
      }
      const made = await admin.expect<{ id: string }>("POST", `/${def.base}/${def.name}`, 201, body);
      ids.set(def.name, made.id);
      pending.splice(pending.indexOf(def), 1);
    }
  }
  expect(
    pending.map((d) => d.name),
    "resources whose sample record could not be made",
  ).toEqual([]);
  return ids;
}

/** Uploads a 2-page catalogue, waits until it is processed and publishes it. */
async function readyCatalogue(request: APIRequestContext, admin: ApiSession) {
  const buffer = await makeCataloguePdf({ pages: 2, photos: false });
  const { accessToken } = await apiSignIn(request);
  const response = await request.post(api("/api/pdfs"), {
    headers: { Authorization: `Bearer ${accessToken}` },
    multipart: { file: { name: "a11y.pdf", mimeType: "application/pdf", buffer } },
  });
  expect(response.status(), await response.text()).toBe(201);
  const pdf = (await response.json()) as { id: string; slug: string };
  await expect
    .poll(
      async () =>
        (await admin.expect<{ pdflist_status: string }>("GET", `/api/pdfs/${pdf.id}`, 200)).pdflist_status,
      { message: "the catalogue is processed", timeout: 90_000, intervals: [250, 500, 1000] },
    )
    .toBe("ready");
  await admin.expect("PATCH", `/api/pdfs/${pdf.id}`, 200, { pdfstatus: true });
  return pdf;
}

/** Scans each screen and fails with every violation found, listed. */
async function expectNoViolations(page: Page, screens: [string, string, (p: Page) => Promise<void>][]) {
  const found: string[] = [];
  for (const [name, path, ready] of screens) found.push(...(await scan(page, name, path, ready)));
  console.log(
    found.length ? found.join("\n") : `${screens.length} screens, no serious or critical violation`,
  );
  expect(found).toEqual([]);
}

test.describe
  .serial("accessibility", () => {
    let pdf: { id: string; slug: string };
    let records: Map<string, string>;

    test.beforeAll(async ({ request }) => {
      const admin = await apiSession(request);
      pdf = await readyCatalogue(request, admin);
      records = await seedRecords(admin);
    });

    test("the signed-out screens and the public catalogue viewer", async ({ page }) => {
      await expectNoViolations(page, [
        ["Sign in", "login", heading],
        ["Forgot password", "password_reset", heading],
        ["Not found", "404", main],
        [
          "Catalogue viewer",
          `${E2E_ORIGIN}/view/${pdf.slug}`,
          (p) => expect(p.locator("img").first()).toBeVisible({ timeout: 30_000 }),
        ],
      ]);
    });

    test("the hand-written screens", async ({ page, request }) => {
      const { user } = await apiSignIn(request);
      await signIn(page);
      await expectNoViolations(
        page,
        (
          [
            ["Home", "/"],
            ["Users", "/users"],
            ["New user", "/users/create"],
            ["User", `/users/show/${user.userID}`],
            ["Edit user", `/users/edit/${user.userID}`],
            ["Account", "/account"],
            ["My devices", "/account/devices"],
            ["Security log", "/users/security-log"],
            ["Mail outbox", "/outbox"],
            ["Digital assets", "/dam"],
            ["Analytics", "/analytics"],
          ] as const
        ).map(([name, path]) => [name, path, main]),
      );
    });

    test("every resource's list, create, show and edit screens", async ({ page }) => {
      await signIn(page);
      const screens: [string, string, (p: Page) => Promise<void>][] = [];
      for (const def of RESOURCES as ResourceDefinition[]) {
        const routes = resourceRoutes(def);
        screens.push([`${def.label} list`, routes.list, main]);
        if (canCreate(def)) screens.push([`New ${def.singular}`, routes.create, main]);
        const id = def.name === "pdfs" ? pdf.id : records.get(def.name);
        expect(id, `a record of ${def.name} to look at`).toBeTruthy();
        // A PDF's show screen is its hotspot editor.
        screens.push([`${def.singular} record`, recordPath(def, "show", id as string), main]);
        screens.push([`Edit ${def.singular}`, recordPath(def, "edit", id as string), main]);
      }
      await expectNoViolations(page, screens);
    });
  });

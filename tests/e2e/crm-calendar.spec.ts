/**
 * The CRM's calendar screens in Chromium: from a client page, "Book meeting" without a calendar
 * says where to connect one; the connection screen (CRM › Calendar, also reached from My account)
 * shows what the server refuses under the field it is about. Booking against a real CalDAV server
 * is tested on the server (tests/server/crm-calendar.test.ts, Radicale): this e2e server keeps the
 * default outbound policy, which refuses loopback addresses — as the screen shows.
 */
import { expect, test } from "@playwright/test";
import { apiSession, dialogOpened, openSignedIn } from "./helpers";
import { shootAsIs } from "./shots";

/** A screen's first render after a navigation: generous, for a machine busy with other work. */
const SCREEN = { timeout: 60_000 };

test("book meeting leads to the calendar connection, whose refusals land under their field", async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const admin = await apiSession(request);
  const client = await admin.expect<{ id: string }>("POST", "/crm/clients", 201, {
    name: "Asha Patel",
    email: `asha-${Date.now()}@example.com`,
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, `crm/clients/show/${client.id}`);
  await expect(page.getByText("No meetings coming up")).toBeVisible(SCREEN);
  await page.getByRole("button", { name: "Book meeting" }).click();
  const dialog = page.getByRole("dialog", { name: "Book a meeting with Asha Patel" });
  await expect(dialog.getByText("Connect your calendar first")).toBeVisible(SCREEN);
  await expect(dialog.getByRole("button", { name: "Book and invite" })).toBeDisabled();
  await shootAsIs(page, "crm-calendar", "book-without-calendar");
  await dialogOpened(dialog);
  await dialog.getByRole("link", { name: /Connect it in CRM › Calendar/ }).click();

  await expect(page).toHaveURL(/\/manage\/crm\/calendar$/, SCREEN);
  await expect(page.getByTestId("calendar-status")).toHaveText("Not connected", SCREEN);
  // A preset fills the address.
  await page.getByRole("button", { name: /Use iCloud's address/ }).click();
  await expect(page.getByLabel("Calendar server URL")).toHaveValue("https://caldav.icloud.com");
  await page.getByLabel("Calendar server URL").fill("http://127.0.0.1:1/");
  await page.getByLabel("User name").fill("olivia");
  await page.getByLabel("App password").fill("app-pass");
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByText(/The address is private, loopback or link-local/)).toBeVisible(SCREEN);
  await expect(page.getByTestId("calendar-status")).toHaveText("Not connected");
  await shootAsIs(page, "crm-calendar", "connection-refused");

  await page.goto("account");
  await page.getByRole("button", { name: "Calendar connection" }).click(SCREEN);
  await expect(page).toHaveURL(/\/manage\/crm\/calendar$/, SCREEN);
});

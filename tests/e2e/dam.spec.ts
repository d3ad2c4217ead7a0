/**
 * The digital asset manager in the browser: nested folders, uploads with their progress,
 * multi-select and move (dialog and drag onto a folder), a second admin's browser updating
 * live, and the asset picker filling a product's images. Files are real PNGs made with sharp,
 * checked and stored by the real server.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import type { DamAsset, DamFolder } from "../../schemas/dam";
import { type ApiSession, apiSession, choose, E2E_ORIGIN, openSignedIn, signIn } from "./helpers";

/** A PNG of one colour, `width`×`height`. */
const png = (width: number, height: number, r: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 120, b: 200 } } })
    .png()
    .toBuffer();

const item = (page: Page, kind: "Folder" | "Asset", name: string): Locator =>
  page.getByRole("row", { name: `${kind} ${name}`, exact: true });

/** Creates a folder in the folder shown, through the "New folder" dialog. */
async function newFolder(page: Page, name: string) {
  await page.getByRole("button", { name: /New folder/ }).click();
  const dialog = page.getByRole("dialog", { name: "New folder" });
  await dialog.getByLabel("Folder name").fill(name);
  await dialog.getByLabel("Folder name").press("Enter");
  await expect(page.getByText(`Folder ${name} created`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(item(page, "Folder", name)).toBeVisible();
}

/** The id of the folder the page shows (its `?folder=`). */
const shownFolder = (page: Page) => new URL(page.url()).searchParams.get("folder");

/** Opens `path` (folder names from the top) in a folder tree: expands each, then clicks the last. */
async function openInTree(scope: Locator, path: string[]) {
  for (const [i, name] of path.entries()) {
    const node = scope
      .locator(".ant-tree-treenode")
      .filter({ has: scope.page().getByText(name, { exact: true }) });
    if (i === path.length - 1) await node.getByText(name, { exact: true }).click();
    else if ((await node.getAttribute("class"))?.includes("ant-tree-treenode-switcher-close"))
      await node.locator(".ant-tree-switcher").click();
  }
}

async function folderByName(admin: ApiSession, parentId: string | null, name: string): Promise<DamFolder> {
  const list = await admin.expect<{ data: DamFolder[] }>(
    "GET",
    `/dam/folders${parentId ? `?parentId=${parentId}` : ""}`,
    200,
  );
  const found = list.data.find((f) => f.name === name);
  if (!found) throw new Error(`no folder ${name}`);
  return found;
}

test("nested folders, uploads with progress, multi-select move, live in a second browser, and the picker", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const tag = `D${Date.now()}`;
  const top = `${tag} Spring`;
  const admin = await apiSession(request);

  await signIn(page);
  await page.getByRole("menu").first().getByText("Digital assets", { exact: true }).click();
  await expect(page).toHaveURL(/\/manage\/dam$/);
  await expect(page.getByRole("heading", { name: "All assets" })).toBeVisible();

  // Nested folders: Spring > Sofas, opened by double-click and left through the breadcrumb.
  await newFolder(page, top);
  await item(page, "Folder", top).dblclick();
  await expect(page.getByRole("heading", { name: top })).toBeVisible();
  const springId = shownFolder(page);
  expect(springId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page.getByText("This folder is empty. Drop files here or use Upload.")).toBeVisible();
  await newFolder(page, "Sofas");
  await newFolder(page, "Chairs");
  await expect(page.getByTestId("folder-details")).toContainText("2 folders · 0 assets");
  const sofas = await folderByName(admin, springId, "Sofas");

  // A second admin's browser, open on Sofas, waiting for what the first one moves there.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await openSignedIn(otherPage, `dam?folder=${sofas.id}`);
  await expect(otherPage.getByRole("heading", { name: "Sofas" })).toBeVisible();
  await expect(otherPage.getByText("This folder is empty. Drop files here or use Upload.")).toBeVisible();
  await expect(otherPage.locator("html")).toHaveAttribute("data-dam-live", "on");

  // Upload three images into Spring; the server's answers are held back a little so the
  // queue's progress is there to see before it completes.
  await page.route("**/dam/assets", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await page.getByLabel("Files to upload").setInputFiles([
    { name: "alpha.png", mimeType: "image/png", buffer: await png(640, 480, 10) },
    { name: "bravo.png", mimeType: "image/png", buffer: await png(480, 640, 90) },
    { name: "charlie.png", mimeType: "image/png", buffer: await png(300, 300, 200) },
  ]);
  const uploads = page.getByRole("region", { name: "Uploads" });
  await expect(uploads).toContainText(/Uploading 3 files · \d+%/);
  await expect(uploads.getByRole("progressbar")).toHaveCount(3);
  await expect(uploads).toContainText("3 uploaded");
  await expect(uploads.locator('[data-upload-state="done"]')).toHaveCount(3);
  await page.unroute("**/dam/assets");
  for (const name of ["alpha.png", "bravo.png", "charlie.png"])
    await expect(item(page, "Asset", name)).toBeVisible();
  await expect(item(page, "Asset", "alpha.png").locator("img")).toHaveJSProperty("complete", true);
  await expect(page.getByTestId("folder-details")).toContainText("2 folders · 3 assets");
  await uploads.getByRole("button", { name: "Close uploads" }).click();
  await expect(uploads).toBeHidden();

  // The keyboard: Ctrl+A selects everything shown, arrows walk, Shift+arrow extends, Escape clears.
  const toolbar = page.getByRole("toolbar", { name: "Selection" });
  const contents = page.getByRole("region", { name: "Folder contents" });
  await contents.focus();
  await page.keyboard.press("Control+a");
  await expect(toolbar).toContainText("2 folders and 3 assets selected");
  await page.keyboard.press("Escape");
  await expect(toolbar).toBeHidden();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowRight");
  await expect(toolbar).toContainText("2 folders selected");
  await page.keyboard.press("Escape");

  // Multi-select: click, then shift-click, spans the three assets.
  await item(page, "Asset", "alpha.png").click({ position: { x: 70, y: 90 } });
  await item(page, "Asset", "charlie.png").click({ position: { x: 70, y: 90 }, modifiers: ["Shift"] });
  await expect(toolbar).toContainText("3 assets selected");
  await expect(item(page, "Asset", "bravo.png")).toHaveAttribute("aria-selected", "true");
  await expect(item(page, "Folder", "Sofas")).toHaveAttribute("aria-selected", "false");

  // Move them to Sofas through the dialog.
  await toolbar.getByRole("button", { name: /Move to/ }).click();
  const dialog = page.getByRole("dialog", { name: "Move 3 assets" });
  await openInTree(dialog, [top, "Sofas"]);
  await dialog.getByRole("button", { name: "Move here" }).click();
  await expect(page.getByText("Moved 3 assets")).toBeVisible();
  await expect(item(page, "Asset", "alpha.png")).toHaveCount(0);
  await expect(toolbar).toBeHidden();

  // The other browser shows them without a reload.
  for (const name of ["alpha.png", "bravo.png", "charlie.png"])
    await expect(item(otherPage, "Asset", name)).toBeVisible();
  await expect(otherPage.getByText("This folder is empty. Drop files here or use Upload.")).toBeHidden();

  // Drag one back out of Sofas onto Chairs in the folder tree; the other browser sees it go.
  await page.goto(`dam?folder=${sofas.id}`);
  await expect(item(page, "Asset", "charlie.png")).toBeVisible();
  // The tree has opened the way down to the folder shown, so Chairs (beside Sofas) is there.
  const tree = page.getByRole("tree").first();
  await item(page, "Asset", "charlie.png").dragTo(tree.getByText("Chairs", { exact: true }));
  await expect(page.getByText("Moved 1 asset")).toBeVisible();
  await expect(item(otherPage, "Asset", "charlie.png")).toHaveCount(0);
  await expect(item(otherPage, "Asset", "alpha.png")).toBeVisible();
  const chairs = await folderByName(admin, springId, "Chairs");
  const inChairs = await admin.expect<{ data: DamAsset[] }>("GET", `/dam/assets?folderId=${chairs.id}`, 200);
  expect(inChairs.data.map((a) => a.name)).toEqual(["charlie.png"]);
  await other.close();

  // The picker: a product's images come from Sofas.
  await admin.expect("POST", "/api/categories", 201, { name: `${tag} Living` });
  await page.goto("products/products/create");
  await expect(page.getByRole("heading", { name: "Create product" })).toBeVisible();
  await page.getByLabel("SKU code", { exact: true }).fill(`SKU-${tag}`);
  await page.getByLabel("Name", { exact: true }).fill(`${tag} Sofa`);
  await page.getByLabel("Price", { exact: true }).fill("499");
  await choose(page, "Category", `${tag} Living`, { type: true });
  await page.getByRole("button", { name: /Choose from assets/ }).click();
  const picker = page.getByRole("dialog", { name: "Choose images from assets" });
  await openInTree(picker, [top, "Sofas"]);
  const choices = picker.getByRole("listbox", { name: "images to choose from" });
  await expect(choices.getByRole("option")).toHaveCount(2);
  await choices.getByRole("option", { name: "alpha.png" }).click();
  await choices.getByRole("option", { name: "bravo.png" }).click();
  await expect(picker).toContainText("2 selected of at most 20");
  await picker.getByRole("button", { name: "Insert 2 images" }).click();
  await expect(picker).toBeHidden();
  const inSofas = await admin.expect<{ data: DamAsset[] }>(
    "GET",
    `/dam/assets?folderId=${sofas.id}&sort=name`,
    200,
  );
  const urls = inSofas.data.map((a) => new URL(a.url, E2E_ORIGIN).href);
  await expect(page.getByLabel("Image URL 1")).toHaveValue(urls[0]);
  await expect(page.getByLabel("Image URL 2")).toHaveValue(urls[1]);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Product created")).toBeVisible();
  // The toast can come before the move to the product's page (busy run J read /create here).
  await expect(page).toHaveURL(/\/manage\/products\/products\/show\/[0-9a-f-]{36}$/);
  const productId = page.url().split("/").pop() as string;
  const product = await admin.expect<{ images: string[] }>("GET", `/api/products/${productId}`, 200);
  expect(product.images).toEqual(urls);
  // The stored URLs serve the images.
  const image = await request.get(urls[0]);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
});

test("a user without the Digital assets module gets the 403 screen and no picker", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const email = `nodam-${Date.now()}@example.com`;
  await admin.expect("POST", "/api/users", 201, {
    first_name: "No",
    last_name: "Assets",
    email,
    password: "Catalog-Passw0rd!",
    role: 3,
    active: true,
    modules: [2],
  });
  await openSignedIn(page, "dam", email, "Catalog-Passw0rd!");
  await expect(page.getByText("You do not have access to this module")).toBeVisible();
  await page.goto("products/products/create");
  await expect(page.getByRole("heading", { name: "Create product" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Add image URL/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /Choose from assets/ })).toHaveCount(0);
});

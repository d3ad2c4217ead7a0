/** What the online store's server tests share: a published catalogue whose hotspots show products. */
import type { TestServer } from "./harness";

/**
 * A published one-page catalogue (straight into the database: its processing is not what these
 * tests are about) with an "add product" hotspot for each of `productIds`; answers its id.
 */
export async function publishedCatalogue(
  s: TestServer,
  name: string,
  slug: string,
  productIds: readonly string[],
): Promise<string> {
  const db = s.database.db;
  const pdf = await db
    .insertInto("pdfs")
    .values({ name, slug, pdfstatus: true, pdflist_status: "ready", page_count: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (productIds.length)
    await db
      .insertInto("pdf_links")
      .values(
        productIds.map((productId, i) => ({
          pdf_id: pdf.id,
          page: 1,
          x: 0.1 * i,
          y: 0.1,
          w: 0.05,
          h: 0.05,
          kind: "addProduct",
          target: JSON.stringify({ productId }),
          position: i,
        })),
      )
      .execute();
  return pdf.id;
}

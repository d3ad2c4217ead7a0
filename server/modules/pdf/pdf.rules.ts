/** The `pdfs` resource's rules: a deleted catalogue takes its files along (after the commit). */
import type { ResourceRules } from "../../resources/rules";
import { pageImageKeys } from "./pdf.keys";

export const pdfRules: ResourceRules = {
  async afterDelete(rows, ctx) {
    const keys = rows.flatMap((row) => {
      const id = String(row.id);
      const version = Number(row.version ?? 1);
      const pages = Number(row.page_count ?? 0);
      // This version's images, and the previous one's in case a replace was being processed.
      return [
        ...(row.file_key ? [String(row.file_key)] : []),
        ...pageImageKeys(id, version, pages),
        ...(version > 1 ? pageImageKeys(id, version - 1, pages) : []),
      ];
    });
    await ctx.storage.delete(keys);
  },
};

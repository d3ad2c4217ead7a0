/** A product's sub-category must belong to the product's category. */
import { badRequest } from "../../http/errors";
import type { ResourceRules } from "../../resources/rules";

export const productRules: ResourceRules = {
  async beforeWrite({ db, existing, values }) {
    const categoryId = (values.category_id ?? existing?.category_id) as string | undefined;
    const subCategoryId = (
      "sub_category_id" in values ? values.sub_category_id : existing?.sub_category_id
    ) as string | null | undefined;
    if (!subCategoryId || !categoryId) return;
    const sub = await db
      .selectFrom("sub_categories")
      .select("category_id")
      .where("id", "=", subCategoryId)
      .executeTakeFirst();
    if (sub && sub.category_id !== categoryId) {
      throw badRequest("The sub-category does not belong to the category", [
        { field: "sub_category_id", message: "must belong to the chosen category" },
      ]);
    }
  },
};

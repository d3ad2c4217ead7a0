/**
 * The `forms` resource's rules: a deleted form takes its versions and its respondents' files
 * along (after the commit; its submissions, stats and definitions go with it by foreign key).
 */
import type { ResourceRules } from "../../resources/rules";
import { deleteVersions } from "../../versions/versions";
import { removeLooseFiles } from "./files.routes";
import { FORMS_RESOURCE } from "./forms.service";

export const formRules: ResourceRules = {
  async afterDelete(rows, ctx) {
    await deleteVersions(
      ctx.db as never,
      FORMS_RESOURCE,
      rows.map((r) => String(r.id)),
    );
    // The files' rows lost their form (on delete set null): they are loose now.
    while ((await removeLooseFiles(ctx)) === 500);
  },
};

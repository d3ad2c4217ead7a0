/** Route schema pieces shared by the asset manager's route files. */
import { MODULE_IDS } from "../../../resources/modules";
import { FOLDER_NAME_MAX } from "../../../schemas/dam";
import { moduleAccess } from "../../auth/access";
import { MAX_PAGE } from "../../http/list-query";
import { uuid } from "../../http/route-params";

export { idParams, uuid } from "../../http/route-params";

export const DAM_BASE = "/dam";

export const tags = ["dam"];
export const security = [{ bearer: [] }];
export const config = { access: moduleAccess(MODULE_IDS.dam) };
export const nullableUuid = { anyOf: [uuid, { type: "null" }] } as const;
export const paging = {
  page: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 },
  pageSize: { type: "integer", minimum: 1, maximum: 500, default: 100 },
  q: { type: "string", maxLength: 200 },
} as const;
export const selection = {
  folderIds: { type: "array", items: uuid, maxItems: 1000, default: [] },
  assetIds: { type: "array", items: uuid, maxItems: 5000, default: [] },
} as const;
export const folderNameSchema = { type: "string", minLength: 1, maxLength: FOLDER_NAME_MAX } as const;

/** An asset's caption (shared by the asset manager's and the CMS media library's PATCH). */
export const ASSET_CAPTION = { type: "string", title: "Caption", maxLength: 1000 } as const;

/** Where the subject is: fractions of width and height; null puts it back in the centre. */
export const ASSET_FOCAL_POINT = {
  title: "Focal point",
  anyOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["x", "y"],
      properties: {
        x: { type: "number", title: "Focal point x", minimum: 0, maximum: 1 },
        y: { type: "number", title: "Focal point y", minimum: 0, maximum: 1 },
      },
    },
    { type: "null" },
  ],
} as const;

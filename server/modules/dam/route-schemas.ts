/** Route schema pieces shared by the asset manager's route files. */
import { MODULE_IDS } from "../../../resources/modules";
import { FOLDER_NAME_MAX } from "../../../schemas/dam";
import { moduleAccess } from "../../auth/access";
import { MAX_PAGE } from "../../http/list-query";

export const DAM_BASE = "/dam";

export const tags = ["dam"];
export const security = [{ bearer: [] }];
export const config = { access: moduleAccess(MODULE_IDS.dam) };
export const uuid = { type: "string", format: "uuid" } as const;
export const nullableUuid = { anyOf: [uuid, { type: "null" }] } as const;
export const idParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;
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

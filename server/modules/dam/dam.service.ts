/**
 * The asset manager's data: nested folders and the assets in them (docs/dam-api.md).
 * Every write commits first, then deletes files that no row points at any more, then
 * tells the `/dam` socket namespace what changed. One service per role; image renditions
 * are the assets service's (server/storage/renditions.ts, made on demand).
 */
import type { AppContext } from "../../context";
import { DamAssets } from "./dam-assets.service";
import { DamFolders } from "./dam-folders.service";
import { DamSelection } from "./dam-selection.service";

export type { AssetListQuery, FolderListQuery, ListAnswer } from "./dam.records";
export { folderName, toAsset, toFolder } from "./dam.records";

export class DamService {
  readonly folders: DamFolders;
  readonly assets: DamAssets;
  readonly selection: DamSelection;

  constructor(ctx: AppContext) {
    this.folders = new DamFolders(ctx);
    this.assets = new DamAssets(ctx);
    this.selection = new DamSelection(ctx);
  }
}

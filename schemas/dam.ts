/** The asset manager's API shapes (docs/dam-api.md), shared by server and client. */

export interface DamFolder {
  id: string;
  name: string;
  /** null: a top-level folder. */
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
  /** In folder lists: whether it has sub-folders (the tree's expand arrow). */
  hasChildren?: boolean;
}

export interface DamPathItem {
  id: string;
  name: string;
}

/** A folder with its breadcrumb (HierarchyFolderData) and totals (InnerFolderDetails). */
export interface DamFolderDetails extends DamFolder {
  path: DamPathItem[];
  folderCount: number;
  assetCount: number;
  totalSize: number;
}

export interface DamAsset {
  id: string;
  folderId: string | null;
  name: string;
  originalName: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string;
  /** A caption shown with the asset (the CMS media library edits it too). */
  caption: string;
  /** Where the subject is, as fractions of width and height (0–1); null: the centre. */
  focalPoint: { x: number; y: number } | null;
  tags: string[];
  url: string;
  thumbnailUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DamUploadError {
  /** The uploaded file's name. */
  name: string;
  message: string;
}

export interface DamUploadResponse {
  data: DamAsset[];
  errors: DamUploadError[];
}

/** `dam:change` on the `/dam` socket namespace, after every committed change. */
export interface DamChange {
  kind: "folder" | "asset";
  type: "created" | "updated" | "deleted" | "moved";
  ids: string[];
  /** Folders whose contents changed (null: the top level). */
  folderIds: (string | null)[];
  actorId: string | null;
}

export const DAM_CHANGE_EVENT = "dam:change";

/** Asset kinds a list can be narrowed to (`GET /dam/assets?type=`), by detected mime type. */
export const ASSET_TYPES = ["image", "video", "audio", "pdf"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** The mime pattern (SQL `like`) of each asset kind. */
export const ASSET_TYPE_MIME: Record<AssetType, string> = {
  image: "image/%",
  video: "video/%",
  audio: "audio/%",
  pdf: "application/pdf",
};

/** Folder names: trimmed, 1–120 characters, no slashes, not "." or "..". */
export const FOLDER_NAME_MAX = 120;
export const ASSET_NAME_MAX = 255;
export const TAG_MAX = 50;
export const TAGS_MAX = 30;
export const ALT_MAX = 500;

/** Rendition widths the assets route makes. */
export const RENDITION_WIDTHS = [64, 160, 320, 640, 1024, 1600, 2400] as const;
export const RENDITION_FORMATS = ["webp", "avif", "jpeg"] as const;
export const THUMBNAIL_WIDTH = 320;

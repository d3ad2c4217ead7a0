/**
 * The asset manager's rows as the API shows them, the list queries, and the small rules every
 * DAM service shares (folder names, sort fields, search patterns).
 */
import { type Kysely, sql } from "kysely";
import type { AssetType, DamAsset, DamFolder } from "../../../schemas/dam";
import type { Database } from "../../db";
import { badRequest, conflict } from "../../http/errors";
import { assetUrls } from "../../storage/serve";

export type Db = Kysely<Database>;
export type FolderRow = {
  id: string;
  name: string;
  parent_id: string | null;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toFolder(row: FolderRow): DamFolder {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export interface AssetRecord {
  id: string;
  folder_id: string | null;
  name: string;
  original_name: string;
  storage_key: string;
  mime: string;
  size: string | number | bigint;
  width: number | null;
  height: number | null;
  alt: string;
  caption?: string;
  focal_x?: number | null;
  focal_y?: number | null;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}

export function toAsset(row: AssetRecord): DamAsset {
  return {
    id: row.id,
    folderId: row.folder_id,
    name: row.name,
    originalName: row.original_name,
    mime: row.mime,
    size: Number(row.size),
    width: row.width,
    height: row.height,
    alt: row.alt,
    caption: row.caption ?? "",
    focalPoint:
      row.focal_x === null || row.focal_x === undefined ? null : { x: row.focal_x, y: row.focal_y as number },
    tags: row.tags ?? [],
    ...assetUrls(row.storage_key, row.mime),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A folder name as stored: trimmed; refused when empty, "." or "..", or with a slash. */
export function folderName(raw: string): string {
  const name = raw.trim();
  if (!name || name === "." || name === ".." || /[/\\]/.test(name)) {
    throw badRequest("This is not a valid folder name", [
      { field: "name", message: "must not be empty, '.', '..' or contain slashes" },
    ]);
  }
  return name;
}

export const NAME_TAKEN = (name: string) =>
  conflict(`A folder named "${name}" already exists here`, [{ field: "name", message: "is already in use" }]);

export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

export interface ListAnswer<T> {
  data: T[];
  total: number;
}

export interface FolderListQuery {
  parentId?: string;
  q?: string;
  sort?: string;
  page?: number;
  pageSize?: number;
}

export interface AssetListQuery {
  folderId?: string;
  /** Every folder's assets (not only those of `folderId` or the top level). */
  everywhere?: boolean;
  /** Only this folder's assets, searches too (a user who may see one folder only). */
  within?: string;
  /** Only these assets, wherever they are (a record's media field shown by thumbnail). */
  ids?: readonly string[];
  q?: string;
  tag?: string;
  /** Only assets of this kind (by detected mime type). */
  type?: AssetType;
  sort?: string;
  page?: number;
  pageSize?: number;
}

/** `name`, `-createdAt`… as an order by; only the listed fields. */
export function orderOf(sort: string | undefined, columns: Record<string, string>, fallback: string) {
  const raw = sort || fallback;
  const desc = raw.startsWith("-");
  const field = desc ? raw.slice(1) : raw;
  const column = columns[field];
  if (!column) {
    throw badRequest(`Cannot sort by ${field}`, [
      { field: "sort", message: `must be one of ${Object.keys(columns).join(", ")}` },
    ]);
  }
  return sql.raw(`${column} ${desc ? "desc" : "asc"}, id asc`);
}

export const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

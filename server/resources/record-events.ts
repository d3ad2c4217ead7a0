/**
 * Any entity's records as others reach them (issue 30): every engine resource and every CMS
 * type is an entity, named by its resource name ("products") or `cms:<apiName>`.
 *
 * - Its writes are told to the app's record watcher (the automations' record triggers), in the
 *   write's transaction, so what the watcher starts exists exactly when the write does. The
 *   watcher answers `watches` from memory when it can: a write nobody watches costs nothing more.
 * - Its records are created, updated and found through the writer of its own service (the
 *   engine's or the CMS's: their validation, rules, versions and live events), for an
 *   automation's record steps, inside the step's transaction.
 *
 * Both are kept per app (a WeakMap on its context), filled by whoever owns the entities: the
 * engine's resources (resources/index.ts) and the CMS module each add a source. Nothing here
 * names a module.
 */
import type { EntitySchema } from "../../schemas/contract";
import type { AnyDb } from "./rules";

type Row = Record<string, unknown>;

export type RecordChangeType = "created" | "updated" | "deleted";

export interface RecordChange {
  /** The entity: a resource's name or `cms:<apiName>`. */
  entity: string;
  type: RecordChangeType;
  /** The record before the write (update, delete); null on create. */
  before: Row | null;
  /** The record after the write (create, update); null on delete. */
  after: Row | null;
  actorId: string | null;
  /** What caused the write (an automation's run, for its chain), when something did. */
  cause?: object | null;
}

export interface RecordWatcher {
  /** Whether writes of `entity` of `type` are watched: a boolean when known, else a promise. */
  watches(entity: string, type: RecordChangeType): boolean | Promise<boolean>;
  /** The writes, in their transaction: throwing undoes them. */
  changed(db: AnyDb, changes: readonly RecordChange[]): Promise<void>;
}

/** How a write reached the entity's service from elsewhere (an automation's step). */
export interface EntityWriteOptions {
  /** The caller's transaction: the write joins it (no transaction of its own). */
  db: AnyDb;
  /** Who the write is by (null: the system, as an automation's step). */
  actorId: string | null;
  /** What made the write when no person did, for its history: `automation:<id>`, `sync:<id>`. */
  actor?: string;
  cause?: object | null;
}

/** One entity, as automations see it. */
export interface Entity {
  name: string;
  /** "Products", "Blog post entries". */
  label: string;
  /** "Product", "Blog post entry". */
  singular: string;
  /** The module whose grant reaches its records. */
  moduleID: number;
  /** Its fields as JSON Schema (a CMS type's entry fields, with `id` and the entry's own). */
  schema(): EntitySchema | Promise<EntitySchema>;
  create(body: Row, options: EntityWriteOptions): Promise<Row>;
  update(id: string, body: Row, options: EntityWriteOptions): Promise<Row>;
  /** The first record whose fields equal `match` (oldest first), or null. */
  find(db: AnyDb, match: Row): Promise<Row | null>;
}

export interface EntitySource {
  list(): Promise<readonly Entity[]> | readonly Entity[];
  get(name: string): Promise<Entity | undefined> | Entity | undefined;
}

interface AppEntities {
  sources: EntitySource[];
  watcher: RecordWatcher | null;
}

const apps = new WeakMap<object, AppEntities>();

function entitiesOfApp(app: object): AppEntities {
  let found = apps.get(app);
  if (!found) {
    found = { sources: [], watcher: null };
    apps.set(app, found);
  }
  return found;
}

/** Adds entities to an app (its context): the engine's resources, the CMS's types. */
export function addEntitySource(app: object, source: EntitySource): void {
  entitiesOfApp(app).sources.push(source);
}

/** Every entity of an app, in the order their sources were added. */
export async function listEntities(app: object): Promise<Entity[]> {
  const lists = await Promise.all(entitiesOfApp(app).sources.map((s) => s.list()));
  return lists.flat();
}

/** One entity by name, or undefined. */
export async function entityNamed(app: object, name: string): Promise<Entity | undefined> {
  for (const source of entitiesOfApp(app).sources) {
    const found = await source.get(name);
    if (found) return found;
  }
  return undefined;
}

/** Sets the app's record watcher (one: the automations'). */
export function watchRecords(app: object, watcher: RecordWatcher): void {
  entitiesOfApp(app).watcher = watcher;
}

/** The app's record watcher, if any. */
export const recordWatcherOf = (app: object): RecordWatcher | null => apps.get(app)?.watcher ?? null;

/**
 * Whether `entity`'s writes of `type` are watched: false at once without a watcher, else its
 * answer (from memory when it has it).
 */
export function isWatched(app: object, entity: string, type: RecordChangeType): boolean | Promise<boolean> {
  const watcher = recordWatcherOf(app);
  return watcher ? watcher.watches(entity, type) : false;
}

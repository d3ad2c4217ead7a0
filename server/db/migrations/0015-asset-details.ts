/**
 * An asset's caption and focal point (issue 14): set from the CMS media library or the asset
 * manager, stored once on the asset, so both show the same. The focal point is where the
 * subject is, as fractions of the width and height (0 to 1), for crops that keep it in view.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dam_assets
      add column caption text not null default '' check (char_length(caption) <= 1000),
      add column focal_x double precision check (focal_x between 0 and 1),
      add column focal_y double precision check (focal_y between 0 and 1),
      add constraint dam_assets_focal_check check ((focal_x is null) = (focal_y is null));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dam_assets drop column caption, drop column focal_x, drop column focal_y;
  `.execute(db);
}

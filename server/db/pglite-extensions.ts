/**
 * The PostgreSQL extensions every PGlite of the product loads: the ones the migrations create,
 * so PostgreSQL and PGlite run the same SQL. pg_trgm gives searched text its trigram indexes
 * (search everywhere, the lists' `q`; migration 0044). A PGlite opened without them cannot run
 * the migrations, nor load a data folder (a template) that has them.
 */
import type { Extensions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

export const PGLITE_EXTENSIONS: Extensions = { pg_trgm };

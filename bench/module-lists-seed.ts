/**
 * The rows of the engine bench's module lists (bench/module-lists.ts), written by SQL in one
 * statement per module, the same on the engine's database and the PGlite floor's own: clients,
 * proposals for them, automations, entries of the CMS bench's `article` type and answers to
 * the forms bench's contact form. The type and the form themselves are made through the app's
 * admin API (bench/module-lists-setup.ts) and their rows copied to a floor's own PGlite
 * (MODULE_FIXTURE_TABLES) before this runs: the entries and answers find them by key.
 *
 * Row g of each module is the same on both databases (names, numbers, values, `now() - g s`
 * as its times), so both sides list them in the same order; every count stays under the
 * lists' exact-count cap (10,000), so both totals are exact.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../server/db";
import { CMS_TYPE, env, FORM_SLUG } from "./resource-engine-settings";

/** Rows seeded per module list (clients, proposals, automations, entries, answers). */
export const MODULE_ROWS = Number(env.BENCH_MODULE_ROWS || 5_000);
/** The rows made through the admin API that the seeded rows refer to, in an order their references allow. */
export const MODULE_FIXTURE_TABLES = ["cms_domains", "content_types", "forms", "form_definitions"] as const;

/** Custom values every client carries (the CRM bench filters on them; the engine bench defines no field). */
export const CLIENT_TIERS = ["gold", "silver", "bronze", "platinum", "basic"];

/**
 * `count` clients, 20,000 an insert: client g named `Client g`, tier 1 in 5 and industry size
 * 0–999 in `custom`, updated g seconds ago. Shared with bench/crm-clients.ts.
 */
export async function insertClients(db: Kysely<Database>, count: number): Promise<void> {
  for (let from = 0; from < count; from += 20_000) {
    const to = Math.min(from + 20_000, count) - 1;
    await sql`
      insert into clients (name, email, company, source, tags, custom, created_at, updated_at)
      select 'Client ' || g, 'client-' || g || '@example.com', 'Company ' || (g % 5000),
             (array['website', 'form', 'referral', 'event', 'import'])[g % 5 + 1], '[]'::jsonb,
             jsonb_build_object('tier', (${sql.val(CLIENT_TIERS)}::text[])[g % 5 + 1], 'industry_size', (g * 7919) % 1000),
             now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(${from}::int, ${to}::int) g`.execute(db);
  }
}

/** The module lists' rows, MODULE_ROWS each; the type and the form must exist (MODULE_FIXTURE_TABLES). */
export async function seedModules(db: Kysely<Database>, adminId: string): Promise<void> {
  const last = MODULE_ROWS - 1;
  await insertClients(db, MODULE_ROWS);
  // Proposal g: for client g (in the clients' order), status and currency in turn, money in minor units / 100.
  await sql`
    insert into proposals (number, title, client_id, currency, discount_option, valid_until, status,
                           subtotal, discount_total, total, created_by, updated_by, created_at, updated_at)
    select 'P-' || lpad(g::text, 6, '0'), 'Proposal ' || g || ' for the spring collection', c.id,
           (array['INR', 'USD', 'EUR', 'GBP'])[g % 4 + 1], 3, current_date + (g % 90),
           (array['draft', 'sent', 'accepted', 'declined', 'expired'])[g % 5 + 1],
           ((g * 7919) % 1000000) / 100.0, 0, ((g * 7919) % 1000000) / 100.0,
           ${adminId}::uuid, ${adminId}::uuid, now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(0, ${last}::int) g
    join (select id, (row_number() over (order by created_at desc, name))::int - 1 as n from clients) c
      on c.n = g % (select count(*) from clients)`.execute(db);
  // Automation g: a draft 1 in 3, else published with a trigger, some with runs and failures.
  await sql`
    insert into automations (name, description, status, owner_id, trigger_kind, published_version, published_at,
                             last_run_at, failed_runs, created_by, updated_by, created_at, updated_at)
    select 'Automation ' || lpad(g::text, 5, '0'), 'Follows up leads, step ' || g,
           (array['draft', 'active', 'paused'])[g % 3 + 1],
           case when g % 2 = 0 then ${adminId}::uuid end,
           case when g % 3 <> 0 then (array['client-created', 'form-submitted', 'schedule', 'webhook', 'manual'])[g % 5 + 1] end,
           case when g % 3 <> 0 then g % 7 + 1 end,
           case when g % 3 <> 0 then now() - make_interval(secs => g + 60) end,
           case when g % 3 <> 0 then now() - make_interval(secs => g + 30) end,
           g % 4, ${adminId}::uuid, ${adminId}::uuid, now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(0, ${last}::int) g`.execute(db);
  // Entry g of the article type: every field of the type set (the media field empty), a third published.
  await sql`
    insert into cms_entries (type_id, domain_ids, status, data, published, published_at, slug, revision, version,
                             draft_changed, created_by, updated_by, created_at, updated_at)
    select ct.id, array[d.id], s.status, e.data,
           case when s.status = 'published' then e.data end,
           case when s.status <> 'draft' then now() - make_interval(secs => g) end,
           e.data ->> 'slug', 1, case when s.status = 'draft' then 0 else 1 end, s.status = 'draft',
           ${adminId}::uuid, ${adminId}::uuid, now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(0, ${last}::int) g
    cross join (select id from content_types where api_name = ${CMS_TYPE} and kind = 'collection') ct
    cross join (select id from cms_domains order by key limit 1) d
    cross join lateral (select (array['draft', 'published', 'unpublished'])[g % 3 + 1] as status) s
    cross join lateral (select jsonb_build_object(
      'title', 'Article number ' || g || ' of the spring collection',
      'slug', 'article-number-' || g,
      'summary', 'What is new this spring, part ' || g || ': fabrics, colours and the pieces to start with.',
      'body', '<p>Linen shirts, light jackets and <strong>new colours</strong> for the season.</p>',
      'rating', g % 5 + 1,
      'cover', null,
      'hero', jsonb_build_object('headline', 'Spring, part ' || g, 'text', 'New pieces every week until June.',
                                 'label', 'Shop now', 'href', 'https://shop.example.com/spring/' || g)) as data) e`.execute(
    db,
  );
  // Answer g to the contact form (its published version; the company only with plan Pro, as its logic
  // shows it), with the UTM parameters it tracks.
  await sql`
    insert into form_submissions (form_id, version, answers, tracking, utm_source, created_at)
    select f.id, f.published_version,
           jsonb_strip_nulls(jsonb_build_object('name', 'Respondent ' || g, 'email', 'respondent-' || g || '@example.com',
                              'plan', p.plan, 'company', case when p.plan = 'Pro' then 'Company ' || (g % 500) end,
                              'start', to_char(date '2026-01-01' + g % 365, 'YYYY-MM-DD'), 'seats', g % 50 + 1)),
           jsonb_build_object('parameters', jsonb_build_object('utm_source', u.source, 'utm_medium', 'cpc',
                                                               'utm_campaign', 'spring', 'gclid', 'none'),
                              'firstTouch', null, 'referrer', 'https://www.google.com/',
                              'landingPage', 'https://shop.example.com/contact', 'userAgent', 'Mozilla/5.0 (bench)'),
           u.source, now() - make_interval(secs => g)
    from generate_series(0, ${last}::int) g
    cross join (select id, published_version from forms where slug = ${FORM_SLUG}) f
    cross join lateral (select (array['Free', 'Pro'])[g % 2 + 1] as plan) p
    cross join lateral (select (array['google', 'newsletter', 'facebook', 'partner'])[g % 4 + 1] as source) u`.execute(
    db,
  );
  for (const table of ["clients", "proposals", "automations", "cms_entries", "form_submissions"])
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
}

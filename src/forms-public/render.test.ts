import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HONEYPOT_FIELD } from "../../schemas/form-definition";
import { FORM_FIELD_KINDS } from "../../schemas/forms";
import type { PublicForm } from "./public-form";
import { FORM_TEMPLATE_TOKENS, renderFormDocument, renderFormHtml } from "./render";
import { sampleForm } from "./sample-form";

/** The markup of one field's block (blocks are siblings, each opened by the same prefix). */
function block(html: string, id: string): string {
  const parts = html.split('<div class="atf-field atf-field--');
  const found = parts.find((p) => p.includes(`data-field="${id}"`));
  if (!found) throw new Error(`no block for ${id}`);
  return found.split('<div class="atf-hp"')[0];
}

/** The opening tag of the block (its own attributes). */
const opening = (html: string, id: string) => block(html, id).split(">")[0];

const HOSTILE = `"><img src=x onerror=alert(1)><script>alert('x')</script>`;

describe("renderFormHtml: one block per field, by kind", () => {
  const html = renderFormHtml(sampleForm());

  it("covers every kind of field (page breaks in the multi-page tests below)", () => {
    const kinds = new Set(sampleForm().fields.map((f) => f.kind));
    expect([...kinds].sort()).toEqual([...FORM_FIELD_KINDS].filter((k) => k !== "page").sort());
    for (const f of sampleForm().fields) expect(opening(html, f.id)).toContain(`data-kind="${f.kind}"`);
  });

  it("uploads files beside the submissions route, on the same base", () => {
    const other = renderFormHtml(sampleForm(), {
      action: "https://f.example/forms/f/contact/submissions?embed=1",
    });
    expect(block(other, "cv")).toContain(
      'data-upload-url="https://f.example/forms/f/contact/files?field=cv"',
    );
  });

  it("is a form posting to the submissions route, without the browser's own checks", () => {
    expect(html).toMatch(
      /^<form class="atf" method="post" action="\/forms\/f\/contact\/submissions" novalidate/,
    );
    expect(
      renderFormHtml(sampleForm(), { action: "https://f.example/forms/f/contact/submissions" }),
    ).toContain('action="https://f.example/forms/f/contact/submissions"');
  });

  it("ties labels to their inputs, and help text and errors by aria-describedby", () => {
    const phone = block(html, "phone");
    expect(phone).toContain('<label class="atf-label" for="atf-contact-phone">Phone</label>');
    expect(phone).toContain('<p class="atf-help" id="atf-contact-phone-help">With the country code.</p>');
    expect(phone).toContain('aria-describedby="atf-contact-phone-help atf-contact-phone-error"');
    expect(phone).toContain('<p class="atf-error" id="atf-contact-phone-error" role="alert"></p>');
    expect(phone).toMatch(/<input id="atf-contact-phone" name="phone"[^>]* type="tel"/);
  });

  it("writes each kind with its control", () => {
    expect(block(html, "email")).toMatch(/type="email"[^>]*autocomplete="email"/);
    expect(block(html, "message")).toMatch(
      /<textarea [^>]*name="message"[^>]*maxlength="5000"[^>]*required><\/textarea>/,
    );
    expect(block(html, "seats")).toMatch(/type="number"[^>]* step="any" min="1" max="500"/);
    expect(block(html, "plan")).toContain('<select id="atf-contact-plan" name="plan"');
    expect(block(html, "plan")).toContain(
      '<option value="">Choose…</option><option value="Free">Free</option>',
    );
    expect(block(html, "cv")).toMatch(
      /type="file" multiple accept="application\/pdf,image\/\*"[^>]* data-upload-url="\/forms\/f\/contact\/files\?field=cv" data-max-size-mb="10"/,
    );
    expect(block(html, "campaign")).toContain(
      '<input type="hidden" id="atf-contact-campaign" name="campaign" value="spring">',
    );
    expect(opening(html, "campaign")).toMatch(/ hidden$/);
    expect(block(html, "intro")).toContain('<h2 class="atf-heading" id="atf-contact-intro">About you</h2>');
    expect(block(html, "intro")).toContain('<p class="atf-help">We answer within two working days.</p>');
  });

  it("writes the date as a text input read day-month-year, never type=date", () => {
    const date = block(html, "start");
    expect(date).toMatch(/type="text"/);
    expect(date).not.toMatch(/type="date"/);
    expect(date).toContain('inputmode="numeric"');
    expect(date).toContain('placeholder="DD-MM-YYYY"');
  });

  it("puts radio buttons and checkboxes in a fieldset with a legend, checkboxes sharing one name", () => {
    const radio = block(html, "contact_by");
    expect(radio).toContain('<fieldset class="atf-group"');
    expect(radio).toContain('<legend class="atf-label">Contact me by</legend>');
    expect(radio.match(/type="radio"/g)).toHaveLength(2);
    const topics = block(html, "topics");
    expect(topics.match(/name="topics"/g)).toHaveLength(3);
    expect(topics).toContain(
      '<input id="atf-contact-topics-2" name="topics" type="checkbox" value="Product"',
    );
    expect(topics).toContain('<label for="atf-contact-topics-2">Product</label>');
  });

  it("writes the consent as one checkbox labelled by the field's label", () => {
    const consent = block(html, "terms");
    expect(consent.match(/<input /g)).toHaveLength(1);
    expect(consent).toMatch(/type="checkbox"[^>]* value="yes"[^>]* required/);
    expect(consent).toContain(
      'for="atf-contact-terms">I agree to the terms<span class="atf-req" aria-hidden="true">*</span>',
    );
  });

  it("writes a rating as radio buttons 1 to max, each with words for screen readers", () => {
    const rating = block(html, "rating");
    expect(rating.match(/type="radio"/g)).toHaveLength(5);
    expect(rating).toContain(
      '<input id="atf-contact-rating-1" name="rating" type="radio" value="1" class="atf-star-input">',
    );
    expect(rating).toContain(
      '<label for="atf-contact-rating-5" class="atf-star"><span class="atf-sr">5 of 5</span></label>',
    );
  });

  it("adds the honeypot, reachable by bots but not by people or screen readers", () => {
    expect(html).toContain('<div class="atf-hp" aria-hidden="true">');
    const hp = html.split('<div class="atf-hp"')[1].split("</div>")[0];
    expect(hp).toContain(`name="${HONEYPOT_FIELD}"`);
    expect(hp).toContain('tabindex="-1"');
    expect(hp).toContain('autocomplete="off"');
    // Off-screen by the stylesheet, not hidden: bots skip what is hidden or type=hidden.
    expect(hp).not.toMatch(/ hidden[ >]|type="hidden"|display/);
  });

  it("ends with the button (the form's label), an alert region and a status region", () => {
    expect(html).toContain('<button type="submit" class="atf-submit">Send</button>');
    expect(html).toContain('<div class="atf-alert" role="alert"></div>');
    expect(html).toMatch(/<div class="atf-status" role="status" aria-live="polite"><\/div><\/form>$/);
  });
});

describe("renderFormHtml: required marks and logic", () => {
  it("marks required fields with a star hidden from screen readers and the required attribute", () => {
    const html = renderFormHtml(sampleForm());
    expect(opening(html, "name")).toContain("data-required");
    expect(block(html, "name")).toContain(
      'Full name<span class="atf-req" aria-hidden="true">*</span></label>',
    );
    expect(block(html, "name")).toMatch(/<input [^>]*required>/);
    expect(opening(html, "phone")).not.toContain("data-required");
    expect(block(html, "phone")).not.toContain("atf-req");
    expect(block(html, "phone")).not.toMatch(/ required/);
  });

  it("says 'required' in words on a required checkbox group, where no control can", () => {
    const form = sampleForm();
    form.fields = form.fields.map((f) => (f.id === "topics" ? { ...f, required: true } : f));
    const topics = block(renderFormHtml(form), "topics");
    expect(topics).toContain('<span class="atf-sr"> (required)</span></legend>');
    expect(topics).not.toMatch(/ required[ >]/);
  });

  it("hides the fields the logic hides for the answers given, and shows them when the answers say so", () => {
    const hiddenFirst = renderFormHtml(sampleForm());
    expect(opening(hiddenFirst, "seats")).toMatch(/ hidden$/);
    expect(opening(hiddenFirst, "call_time")).toMatch(/ hidden$/);
    expect(opening(hiddenFirst, "plan")).not.toMatch(/ hidden$/);

    const shown = renderFormHtml(sampleForm(), { values: { plan: "Enterprise", contact_by: "Phone" } });
    expect(opening(shown, "seats")).not.toMatch(/ hidden/);
    expect(opening(shown, "call_time")).not.toMatch(/ hidden/);
  });

  it("requires a field when a rule says so for the answers given", () => {
    const html = renderFormHtml(sampleForm(), { values: { contact_by: "Phone" } });
    expect(opening(html, "call_time")).toContain("data-required");
    expect(block(html, "call_time")).toContain('class="atf-req"');
    expect(
      opening(renderFormHtml(sampleForm(), { values: { contact_by: "Email" } }), "call_time"),
    ).not.toContain("data-required");
  });
});

describe("renderFormHtml: answers filled in again", () => {
  const values = {
    name: "Ada",
    email: "ada@example.com",
    plan: "Enterprise",
    seats: "12",
    start: "2025-12-31",
    contact_by: "Phone",
    call_time: "Mornings",
    topics: ["Billing", "Other"],
    message: "\nTwo\nlines",
    rating: "4",
    terms: "yes",
    campaign: "autumn",
  };
  const html = renderFormHtml(sampleForm(), { values });

  it("fills text inputs, the textarea (keeping a first newline) and the hidden field", () => {
    expect(block(html, "name")).toContain('value="Ada"');
    expect(block(html, "seats")).toContain('value="12"');
    expect(block(html, "message")).toMatch(/>\n\nTwo\nlines<\/textarea>/);
    expect(block(html, "campaign")).toContain('value="autumn"');
  });

  it("shows a stored date (YYYY-MM-DD) day-month-year, and a typed one as typed", () => {
    expect(block(html, "start")).toContain('value="31-12-2025"');
    expect(block(renderFormHtml(sampleForm(), { values: { start: "5-3-2024" } }), "start")).toContain(
      'value="5-3-2024"',
    );
  });

  it("selects the option, checks the radio, the checkboxes, the star and the consent", () => {
    expect(block(html, "plan")).toContain('<option value="Enterprise" selected>');
    expect(block(html, "contact_by")).toMatch(/value="Phone" class="atf-check" checked/);
    expect(block(html, "contact_by")).not.toMatch(/value="Email"[^>]*checked/);
    expect(block(html, "topics")).toMatch(/value="Billing"[^>]*checked/);
    expect(block(html, "topics")).not.toMatch(/value="Product"[^>]*checked/);
    expect(block(html, "topics")).toMatch(/value="Other"[^>]*checked/);
    expect(block(html, "rating")).toMatch(/value="4" class="atf-star-input" checked/);
    expect(block(html, "terms")).toMatch(/value="yes" checked/);
  });

  it("leaves a consent posted as anything but yes unticked", () => {
    expect(block(renderFormHtml(sampleForm(), { values: { terms: "" } }), "terms")).not.toContain("checked");
  });
});

describe("renderFormHtml: errors", () => {
  const errors = [
    { field: "email", message: "Email must be a valid email address" },
    { field: "topics", message: "Topics needs at least 2 choices" },
    { field: "answers", message: "The data is too large" },
  ];
  const html = renderFormHtml(sampleForm(), { values: { email: "nope" }, errors });

  it("shows each field's message under it and marks its controls invalid", () => {
    const email = block(html, "email");
    expect(opening(html, "email")).toContain("data-invalid");
    expect(email).toContain('aria-invalid="true"');
    expect(email).toContain('role="alert">Email must be a valid email address</p>');
    expect(block(html, "topics").match(/aria-invalid="true"/g)).toHaveLength(3);
    expect(opening(html, "name")).not.toContain("data-invalid");
    expect(block(html, "name")).not.toContain("aria-invalid");
  });

  it("says above the button how many answers need attention, with the messages of no field", () => {
    expect(html).toContain(
      '<div class="atf-alert" role="alert">Please check 2 answers marked above. The data is too large</div>',
    );
  });
});

describe("renderFormHtml: everything escaped", () => {
  const form: PublicForm = {
    slug: `x"><script>`,
    name: HOSTILE,
    version: 1,
    fields: [
      { id: "t", kind: "text", label: HOSTILE, help: HOSTILE, placeholder: HOSTILE, validation: {} },
      { id: "d", kind: "dropdown", label: "D", options: [HOSTILE, "ok"], validation: {} },
      { id: "r", kind: "radio", label: "R", options: [HOSTILE], validation: {} },
      { id: "c", kind: "checkboxes", label: "C", options: [HOSTILE], validation: {} },
      { id: "h", kind: "heading", label: HOSTILE, help: HOSTILE, validation: {} },
      { id: "k", kind: "consent", label: HOSTILE, validation: {} },
      { id: "l", kind: "longtext", label: "L", validation: {} },
    ],
    settings: {
      submit: { buttonLabel: HOSTILE, successMessage: HOSTILE },
      utm: { parameters: [] },
      firstTouch: "off",
    },
  };
  const html = renderFormHtml(form, {
    values: { t: HOSTILE, d: HOSTILE, l: `</textarea>${HOSTILE}` },
    errors: [
      { field: "t", message: HOSTILE },
      { field: "nope", message: HOSTILE },
    ],
    tracking: { 'utm"><b>': HOSTILE },
    action: `/x"><script>`,
  });

  it("lets no markup through from labels, options, help, values, errors, tracking or the button", () => {
    expect(html).not.toMatch(/<img|<script|<b>|<\/textarea>&quot;|onerror=alert\(1\)>/);
    expect(html.match(/<textarea /g)).toHaveLength(1);
    expect(html.match(/<\/textarea>/g)).toHaveLength(1);
    expect(html).toContain("&lt;/textarea&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
  });

  it("keeps every attribute value inside its quotes", () => {
    // Each `="` opens a value that closes before any `<` or `>`: no hostile quote broke out.
    for (const [, value] of html.matchAll(/="([^"]*)"/g)) expect(value).not.toMatch(/[<>]/);
  });

  it("still selects an option whose text is hostile", () => {
    expect(html).toContain("selected>&quot;&gt;&lt;img");
  });
});

describe("renderFormHtml: tracking and preview", () => {
  it("writes one hidden _t_ input per tracking entry", () => {
    const html = renderFormHtml(sampleForm(), {
      tracking: { utm_source: "news", landing: "https://a.example/?utm_source=news", referrer: "" },
    });
    expect(html).toContain('<input type="hidden" name="_t_utm_source" value="news">');
    expect(html).toContain(
      '<input type="hidden" name="_t_landing" value="https://a.example/?utm_source=news">',
    );
    expect(html).toContain('<input type="hidden" name="_t_referrer" value="">');
  });

  it("marks the preview and gives it no address to post to", () => {
    const html = renderFormHtml(sampleForm(), { preview: true });
    expect(html).toMatch(/^<form class="atf" method="post" novalidate/);
    expect(html.split(">")[0]).toContain("data-preview");
    expect(html.split(">")[0]).not.toContain("action=");
  });
});

describe("renderFormDocument", () => {
  const template = readFileSync(path.resolve(import.meta.dirname, "../../form.html"), "utf8");
  const form = sampleForm();
  const formHtml = renderFormHtml(form);

  it("form.html holds every token once", () => {
    for (const token of Object.values(FORM_TEMPLATE_TOKENS))
      expect(template.split(token), token).toHaveLength(2);
  });

  it("fills the title, the heading, the form and the data, and leaves no token", () => {
    const page = renderFormDocument(template, form, {
      formHtml,
      title: "Contact us",
      state: "open",
      embed: false,
    });
    expect(page).toContain("<title>Contact us</title>");
    expect(page).toContain('<body class="atf-page">');
    expect(page).toContain('<h1 class="atf-page-title">Contact us</h1><form class="atf"');
    expect(page).toContain('<script type="application/json" id="atelier-form-data">{"slug":"contact"');
    for (const token of Object.values(FORM_TEMPLATE_TOKENS)) expect(page).not.toContain(token);
  });

  it("in an iframe: the embed class and no page heading", () => {
    const page = renderFormDocument(template, form, {
      formHtml,
      title: "Contact us",
      state: "open",
      embed: true,
    });
    expect(page).toContain('<body class="atf-page atf-embed">');
    expect(page).not.toContain("atf-page-title");
  });

  it("shows the success message once sent and says so when the form is closed, without the form", () => {
    const sent = renderFormDocument(template, form, { formHtml, title: "T", state: "sent", embed: false });
    expect(sent).toContain(
      '<div class="atf atf-success" role="status" tabindex="-1"><p>Thank you! We will be in touch.</p></div>',
    );
    expect(sent).not.toContain("<form");
    const closed = renderFormDocument(template, form, {
      formHtml,
      title: "T",
      state: "closed",
      embed: false,
    });
    expect(closed).toContain("This form is closed.");
    expect(closed).not.toContain("<form");
  });

  it("keeps the data inside its script element whatever the labels say", () => {
    const hostile = { ...form, name: "</script><script>alert(1)</script><!--", fields: [] };
    const page = renderFormDocument(template, hostile, {
      formHtml: "",
      title: hostile.name,
      state: "open",
      embed: false,
    });
    const data = page
      .split('<script type="application/json" id="atelier-form-data">')[1]
      .split("</script>")[0];
    expect(JSON.parse(data).name).toBe(hostile.name);
    expect(data).not.toContain("<");
    expect(page).toContain("<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--</title>");
  });

  it("reads no replacement pattern or token in the text it puts in", () => {
    const tricky = { ...form, name: "$& $' $` __ATELIER_BODY_CLASS__ <!--atelier:data-->", fields: [] };
    const page = renderFormDocument(template, tricky, {
      formHtml: "",
      title: tricky.name,
      state: "open",
      embed: false,
    });
    expect(page).toContain(
      "<title>$&amp; $&#39; $` __ATELIER_BODY_CLASS__ &lt;!--atelier:data--&gt;</title>",
    );
    expect(page.match(/id="atelier-form-data"/g)).toHaveLength(1);
  });
});

describe("renderFormHtml: a form of several pages", () => {
  const paged: PublicForm = {
    ...sampleForm(),
    fields: [
      { id: "name", kind: "text", label: "Name", required: true, validation: {} },
      { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
      {
        id: "more",
        kind: "page",
        label: "About your team",
        help: "Two questions",
        validation: {},
        logic: [
          { action: "hide", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Free" }] },
        ],
      },
      { id: "team", kind: "number", label: "Team size", validation: {} },
      { id: "last", kind: "page", label: "Done", validation: {} },
      { id: "notes", kind: "longtext", label: "Notes", validation: {} },
    ],
  };

  it("shows the first page with its progress, Next first and Back hidden", () => {
    const html = renderFormHtml(paged);
    expect(html).toContain('data-page="0"><div class="atf-progress">');
    expect(html).toContain("Page 1 of 3");
    expect(html).toContain('<progress class="atf-progress-bar" max="3" value="1"');
    expect(html).toContain('<section class="atf-step" data-page="1" hidden aria-label="About your team">');
    expect(html).toMatch(
      /<button type="submit" class="atf-submit" name="_nav" value="next">Next<\/button><button[^>]*value="back" hidden>/,
    );
    expect(html).toContain('<input type="hidden" name="_page" value="0">');
  });

  it("counts only the pages the answers show, and sends from the last of them", () => {
    const html = renderFormHtml(paged, { values: { name: "A", plan: "Free" }, page: 2 });
    expect(html).toContain("Page 2 of 2");
    expect(html).toContain('value="send">Send</button>');
    expect(html).not.toMatch(/value="back" hidden/);
    // A skipped page asked for gives the nearest shown before it.
    expect(renderFormHtml(paged, { values: { plan: "Free" }, page: 1 })).toContain('name="_page" value="0"');
  });

  it("renders a form of one page as before: no sections, no progress, a plain button", () => {
    const html = renderFormHtml(sampleForm());
    expect(html).not.toContain("atf-step");
    expect(html).not.toContain("atf-progress");
    expect(html).toContain('<button type="submit" class="atf-submit">');
  });
});

/**
 * Brings the server-rendered form (render.ts) to life in the browser: the conditional logic as
 * one types, each answer checked when one leaves it (the very checks the server makes,
 * schemas/form-answers.ts), and sending without leaving the page, with the server's verdict
 * shown where it belongs. Used by the form's page, the inline embed and the admin's preview.
 */
import { checkAnswers, fieldStates } from "../../schemas/form-answers";
import { answers, HONEYPOT_FIELD } from "../../schemas/form-definition";
import { checkPages, pageOfFields, stepPage } from "../../schemas/form-pages";
import {
  applyStates,
  collectAnswers,
  fieldBlock,
  fieldIdOf,
  fillAnswers,
  focusField,
  showFieldError,
} from "./form-dom";
import { summary } from "./messages";
import { currentPage, focusPage, showPage } from "./pages";
import { forgetResume, loadPartial, partialUrlOf, resumeToken, savePartial } from "./partials";
import type { PublicForm } from "./public-form";
import { idempotencyKeys, type SendOutcome, sendSubmission } from "./submit";
import { pageTracking } from "./tracking";
import { uploadFiles } from "./uploads";

export interface EnhanceOptions {
  /** Where the answers are posted; null in the admin's preview, which checks but never sends. */
  submitUrl: string | null;
  /** The submission's `tracking`; by default this page's tracked parameters, address and referrer. */
  tracking?: () => object;
  onSent?: () => void;
  /** The height of `root` whenever it changes (an iframe's page tells its parent). */
  onResize?: (height: number) => void;
}

export const PREVIEW_MESSAGE = "Preview: this would be sent";
export const SENDING_MESSAGE = "Sending your answer…";
export const UPLOADING_MESSAGE = "Please wait until your files are uploaded.";

type Problem = { field: string; message: string };

/** Kinds answered in one gesture, checked at once; others when the respondent leaves them. */
const CHOSEN_AT_ONCE = new Set(["dropdown", "radio", "rating", "consent"]);

/**
 * Enhances the `form.atf` inside `root`; the returned function removes every listener.
 *
 * @example
 * const stop = enhanceForm(document.body, form, { submitUrl: `/forms/f/${form.slug}/submissions` });
 */
export function enhanceForm(root: HTMLElement, form: PublicForm, opts: EnhanceOptions): () => void {
  const found = root.querySelector<HTMLFormElement>("form.atf");
  if (!found) return () => {};
  const el: HTMLFormElement = found;
  const { fields } = form;
  const controller = new AbortController();
  const listen = <K extends keyof HTMLElementEventMap>(type: K, fn: (e: HTMLElementEventMap[K]) => void) =>
    el.addEventListener(type, fn, { signal: controller.signal });
  const alert = el.querySelector<HTMLElement>(".atf-alert");
  const status = el.querySelector<HTMLElement>(".atf-status");
  const button = el.querySelector<HTMLButtonElement>(".atf-submit");
  const known = new Set(fields.filter(answers).map((f) => f.id));
  /** Fields the respondent has typed in: checked when left, not before. */
  const touched = new Set<string>();
  /** Upload problems by field, kept until the files are picked again. */
  const uploadProblems = new Map<string, string>();
  const keyFor = idempotencyKeys();
  let sending = false;
  const sendLabel = form.settings.submit.buttonLabel || "Submit";
  const pageOf = pageOfFields(fields);
  // Answers are kept as the visitor goes (partials.ts), never from the admin's preview.
  const partialUrl = opts.submitUrl === null ? null : partialUrlOf(opts.submitUrl);
  /** Answers changed since they were last saved. */
  let unsaved = false;
  let started = false;

  const read = () => collectAnswers(el, fields);
  /** The problems of the answers; with `page`, of that page's fields only (Next). */
  const problems = (page: number | null = null): Problem[] => [
    ...(page === null ? checkAnswers(fields, read()) : checkPages(fields, read(), (p) => p === page)).errors,
    ...[...uploadProblems]
      .filter(([field]) => page === null || pageOf.get(field) === page)
      .map(([field, message]) => ({ field, message })),
  ];
  const visibleAnswers = () => {
    const raw = read();
    const visible = fieldStates(fields, raw).visible;
    return Object.fromEntries(Object.entries(raw).filter(([id]) => visible.has(id)));
  };
  const trackingNow = () => (opts.tracking ?? defaultTracking(form))();
  const save = (leaving = false) => {
    if (!partialUrl) return Promise.resolve();
    unsaved = false;
    return savePartial(
      partialUrl,
      form.slug,
      { answers: visibleAnswers(), page: currentPage(el) ?? 0, tracking: trackingNow() },
      leaving,
    );
  };
  const show = (id: string, list: readonly Problem[]) => {
    const block = fieldBlock(el, id);
    if (block) showFieldError(block, list.find((p) => p.field === id)?.message ?? null);
  };
  const say = (region: HTMLElement | null, text: string) => {
    if (!region) return;
    // Emptied first, so that the same sentence said twice is announced twice.
    region.textContent = "";
    if (text) requestAnimationFrame(() => (region.textContent = text));
  };

  const refresh = () => {
    const values = read();
    applyStates(el, fields, fieldStates(fields, values));
    showPage(el, fields, values, sendLabel);
  };

  if (opts.submitUrl !== null) fillFromUrl(el, form);
  refresh();
  /** The page saved, or the last page before it that these answers show. */
  const pageToResume = (page: number) => {
    let at = 0;
    for (let next = stepPage(fields, read(), at, 1); next !== null && next <= page; )
      [at, next] = [next, stepPage(fields, read(), next, 1)];
    return at;
  };
  // A return within the resume window: the answers saved before, on the page the visitor left.
  if (partialUrl && resumeToken(form.slug))
    void loadPartial(partialUrl, form.slug).then((saved) => {
      if (!saved || controller.signal.aborted || touched.size) return;
      fillAnswers(el, fields, saved.answers);
      refresh();
      if (currentPage(el) !== null) showPage(el, fields, read(), sendLabel, pageToResume(saved.page));
    });
  // The first answer counts as a start (the funnel) and is kept; leaving keeps the rest.
  const leaving = () => {
    if (unsaved && !sending) void save(true);
  };
  window.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && leaving(), {
    signal: controller.signal,
  });
  window.addEventListener("pagehide", leaving, { signal: controller.signal });

  listen("input", (e) => {
    const id = fieldIdOf(e.target);
    if (id) touched.add(id);
    unsaved = true;
    // The first answer on this visit is kept at once: the funnel counts the visitor as started.
    if (id && !started) {
      started = true;
      if (!resumeToken(form.slug)) void save();
    }
    refresh();
    // "Preview: this would be sent" was about the answers before this change.
    if (!sending && status?.textContent) status.textContent = "";
    // A message goes away as soon as the answer is right, not only on leaving the field.
    const invalid = [...el.querySelectorAll<HTMLElement>(".atf-field[data-invalid]")];
    if (!invalid.length) return;
    const list = problems();
    for (const block of invalid) show(block.dataset.field ?? "", list);
    if (!el.querySelector(".atf-field[data-invalid]") && alert?.textContent) say(alert, "");
  });
  listen("change", (e) => {
    const id = fieldIdOf(e.target);
    if (id) touched.add(id);
    unsaved = true;
    refresh();
    const input = e.target;
    if (id && input instanceof HTMLInputElement && input.type === "file") {
      uploadProblems.delete(id);
      show(id, problems());
      void uploadFiles(input).then((problem) => {
        if (problem) uploadProblems.set(id, problem);
        show(id, problems());
      });
    } else if (id && CHOSEN_AT_ONCE.has(fieldBlock(el, id)?.dataset.kind ?? "")) show(id, problems());
  });
  // A message shown on leaving a field moves what is below it. Left with the pointer (pressed on
  // the next field), the message waits for the press to end: the click lands where it was aimed.
  let pressing = false;
  const waiting = new Set<string>();
  listen("pointerdown", () => {
    pressing = true;
  });
  const released = () => {
    if (!pressing) return;
    pressing = false;
    if (!waiting.size) return;
    const list = problems();
    for (const id of waiting) show(id, list);
    waiting.clear();
  };
  // After the click that ends the press (a timer, so it runs once the click has been handled).
  for (const type of ["pointerup", "pointercancel"] as const)
    window.addEventListener(type, () => setTimeout(released, 0), { signal: controller.signal });
  listen("focusout", (e) => {
    const id = fieldIdOf(e.target);
    if (!id || !touched.has(id) || fieldIdOf(e.relatedTarget) === id) return;
    if (pressing) waiting.add(id);
    else show(id, problems());
  });
  listen("submit", (e) => {
    e.preventDefault();
    if (sending) return;
    const page = currentPage(el);
    const submitter = (e as SubmitEvent).submitter;
    if (page !== null && submitter instanceof HTMLElement && submitter.classList.contains("atf-back"))
      return move(stepPage(fields, read(), page, -1));
    if (page !== null && stepPage(fields, read(), page, 1) !== null) return next(page);
    void submit();
  });

  /** Next: the page's own answers checked (only its visible fields), then the next page shown. */
  function next(page: number) {
    const list = problems(page);
    const mine = fields.filter((f) => pageOf.get(f.id) === page && known.has(f.id));
    for (const f of mine) show(f.id, list);
    const first = mine.find((f) => list.some((p) => p.field === f.id));
    if (first) {
      say(alert, summary(list, known));
      const block = fieldBlock(el, first.id);
      if (block) focusField(block);
      return;
    }
    if (el.querySelector(".atf-step:not([hidden]) .atf-field[data-uploading]"))
      return say(alert, UPLOADING_MESSAGE);
    say(alert, "");
    move(stepPage(fields, read(), page, 1));
    void save();
  }

  function move(page: number | null) {
    if (page === null) return;
    say(alert, "");
    showPage(el, fields, read(), sendLabel, page);
    focusPage(el);
  }

  async function submit() {
    const list = problems();
    for (const id of known) show(id, list);
    const first = fields.find((f) => list.some((p) => p.field === f.id));
    if (first) {
      say(alert, summary(list, known));
      toPageOf(first.id);
      const block = fieldBlock(el, first.id);
      if (block) focusField(block);
      return;
    }
    if (el.querySelector(".atf-field[data-uploading]")) return say(alert, UPLOADING_MESSAGE);
    say(alert, "");
    if (opts.submitUrl === null) return say(status, PREVIEW_MESSAGE);

    const given = visibleAnswers();
    const honeypot = el.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)?.value ?? "";
    const key = keyFor(JSON.stringify(given));
    const token = resumeToken(form.slug);
    const body = JSON.stringify({
      answers: given,
      tracking: trackingNow(),
      [HONEYPOT_FIELD]: honeypot,
      // The partial answer goes once this is stored.
      ...(token ? { resumeToken: token } : {}),
    });

    sending = true;
    if (button) button.disabled = true;
    el.setAttribute("aria-busy", "true");
    say(status, SENDING_MESSAGE);
    const outcome = await sendSubmission(opts.submitUrl, body, key);
    sending = false;
    if (button) button.disabled = false;
    el.removeAttribute("aria-busy");
    if (!controller.signal.aborted) settle(outcome);
  }

  function settle(outcome: SendOutcome) {
    if (outcome.kind === "sent") {
      forgetResume(form.slug);
      unsaved = false;
      const done = successElement(form);
      el.replaceWith(done);
      done.focus();
      opts.onSent?.();
      return;
    }
    say(status, "");
    if (outcome.kind === "failed") return say(alert, outcome.message);
    const onFields = outcome.errors.filter((p) => known.has(p.field));
    for (const id of known) show(id, onFields);
    say(alert, onFields.length ? summary(outcome.errors, known) : outcome.message);
    const first = fields.find((f) => onFields.some((p) => p.field === f.id));
    if (first) toPageOf(first.id);
    const block = first && fieldBlock(el, first.id);
    if (block) focusField(block);
  }

  /** A multi-page form shows the page of a field with a problem. */
  function toPageOf(id: string) {
    const page = pageOf.get(id);
    if (currentPage(el) !== null && page !== undefined && page !== currentPage(el))
      showPage(el, fields, read(), sendLabel, page);
  }

  let observer: ResizeObserver | null = null;
  if (opts.onResize && typeof ResizeObserver === "function") {
    const report = opts.onResize;
    observer = new ResizeObserver(() => report(Math.ceil(root.getBoundingClientRect().height)));
    observer.observe(root);
  }
  return () => {
    controller.abort();
    observer?.disconnect();
  };
}

/** The tracking of an answer given on this page (no first touch: the embed script adds it). */
function defaultTracking(form: PublicForm) {
  return () => ({
    ...pageTracking({ href: location.href, referrer: document.referrer }, form.settings.utm.parameters),
    firstTouch: null,
  });
}

/** A hidden field takes the value of the URL parameter of its name, when the URL has one. */
function fillFromUrl(el: HTMLFormElement, form: PublicForm) {
  const params = new URLSearchParams(location.search);
  for (const f of form.fields) {
    const value = f.kind === "hidden" ? params.get(f.id) : null;
    const input = value === null ? null : fieldBlock(el, f.id)?.querySelector("input");
    if (input && value !== null) input.value = value;
  }
}

/** What replaces the form once it is sent: the form's success message (as render.ts `successHtml`). */
function successElement(form: PublicForm): HTMLElement {
  const done = document.createElement("div");
  done.className = "atf atf-success";
  done.setAttribute("role", "status");
  done.tabIndex = -1;
  const text = document.createElement("p");
  text.textContent = form.settings.submit.successMessage;
  done.append(text);
  return done;
}

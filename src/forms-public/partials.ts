/**
 * Partial answers in the browser (issue 29): the resume token the server gives on a first save
 * is kept in this site's localStorage (the form's own page, or the site of an inline embed), one
 * per form; the answers so far are saved with it on each Next and when the visitor leaves, and a
 * return within the form's resume window loads them back. The token is a secret: it travels in
 * a header or the JSON body, never in an address.
 */
import type { Answers } from "../../schemas/form-answers";

/** The header the server reads the token from (server/modules/forms/partial-store.ts). */
export const RESUME_HEADER = "x-atelier-resume";
const KEY = (slug: string) => `atelier_resume:${slug}`;

/** Where a form's partial answers are saved, beside its submissions route. */
export const partialUrlOf = (submitUrl: string) => submitUrl.replace(/\/submissions(\?.*)?$/, "/partial");

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export const resumeToken = (slug: string) => storage()?.getItem(KEY(slug)) ?? null;
export const forgetResume = (slug: string) => storage()?.removeItem(KEY(slug));

export interface SavedAnswers {
  answers: Answers;
  page: number;
}

/** The answers saved for this visitor, or null (none, expired, or the network failed). */
export async function loadPartial(url: string, slug: string): Promise<SavedAnswers | null> {
  const token = resumeToken(slug);
  if (!token) return null;
  try {
    const response = await fetch(url, { credentials: "omit", headers: { [RESUME_HEADER]: token } });
    if (response.status === 404) forgetResume(slug);
    if (!response.ok) return null;
    const body = (await response.json()) as SavedAnswers;
    return body && typeof body.answers === "object" && typeof body.page === "number" ? body : null;
  } catch {
    return null;
  }
}

/**
 * Saves the answers so far; keeps the token the server answers. Failures are quiet: saving is a
 * kindness to the visitor, never a reason to stop them.
 */
export async function savePartial(
  url: string,
  slug: string,
  body: { answers: Answers; page: number; tracking: object },
  leaving = false,
): Promise<void> {
  const token = resumeToken(slug);
  try {
    const response = await fetch(url, {
      method: "POST",
      credentials: "omit",
      // Still sent while the page goes away (the visitor leaving).
      keepalive: leaving,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, ...(token ? { resumeToken: token } : {}) }),
    });
    if (!response.ok) return;
    const saved = (await response.json()) as { resumeToken?: unknown };
    if (typeof saved.resumeToken === "string") storage()?.setItem(KEY(slug), saved.resumeToken);
  } catch {
    // Offline or refused: the visitor goes on; the next save tries again.
  }
}

/** Addresses of the admin app the shell and the layout both recognise (under `/manage`). */

/** A resource list's address: `/manage/{module}/{resource}`. */
export const LIST_PATH = /^\/manage\/[\w-]+\/[\w-]+\/?$/;
/** Addresses of the screens before sign-in (under `/manage`): no layout, no session needed. */
export const PUBLIC_PATHS = /^\/manage\/(login|password_reset|resetpassword\/|404)/;

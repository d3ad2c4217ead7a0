/** Addresses of the admin app the shell and the layout both recognise (under `/manage`). */

/** A resource list's address: `/manage/{module}/{resource}`. */
export const LIST_PATH = /^\/manage\/[\w-]+\/[\w-]+\/?$/;

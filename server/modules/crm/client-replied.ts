/**
 * What follows when a client answers (an email reply now, an inbound SMS later): called in the
 * transaction that stores the reply, once per reply, never for an automatic answer (an
 * out-of-office, a bounce).
 *
 * The sequences' run engine (being built beside this) makes the client leave their active
 * sequences here: `onClientReplied` is the single hook it is wired into.
 */
import type { Db } from "./timeline";

export async function onClientReplied(_trx: Db, _clientId: string): Promise<void> {
  // Wired by the sequences' run engine: exit this client's active enrolments (reason "replied").
}

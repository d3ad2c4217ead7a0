/**
 * What follows when a client opts out of SMS (texts STOP): called in the transaction that sets
 * `clients.sms_opted_out_at`, once per opt-out.
 *
 * The sequences' run engine makes the client leave their active sequences here (reason
 * "opted out"): `onClientOptedOut` is the single hook it is wired into.
 */
import type { Db } from "./timeline";

export async function onClientOptedOut(_trx: Db, _clientId: string): Promise<void> {
  // Wired by the sequences' run engine: exit this client's active enrolments (reason "opted_out").
}

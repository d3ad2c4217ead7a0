/**
 * What an SMS provider is (server/sms): the requests it is handed, what it answers, and what it
 * reads from its webhooks. Apart from provider.ts, whose registry imports each provider, so a
 * provider (twilio.ts) reads its contract without importing the registry back.
 */
import type { SmsStatus } from "../../schemas/sms";

/** One SMS handed to a provider. */
export interface SmsSendRequest {
  /** Our id of the message: providers that take an idempotency key get it. */
  id: string;
  to: string;
  body: string;
  /** Where the provider posts delivery reports (null: none). */
  statusCallback: string | null;
}

/** What came of a send: taken (with the provider's id), or refused/failed. */
export type SmsSendResult =
  | { ok: true; providerId: string; status: SmsStatus; from: string | null }
  | {
      ok: false;
      /** true: try again later (5xx, 429, network); false: the provider said no (4xx). */
      retry: boolean;
      /** The provider's words, shown to admins. */
      error: string;
      errorCode: string | null;
    };

/** The parameters of an inbound provider request (form fields), and how it was signed. */
export interface SignedRequest {
  /** The full public URL the provider called (PUBLIC_URL + path and query). */
  url: string;
  params: Readonly<Record<string, string | readonly string[]>>;
  signature: string | undefined;
}

type Params = SignedRequest["params"];

/** An SMS someone sent us, in provider-neutral terms. */
export interface InboundSms {
  providerId: string;
  /** The sender's number (E.164). */
  from: string;
  to: string | null;
  body: string;
  /** The provider's own reading of an opt-out or opt-in keyword, if it tells (null: read the body). */
  keyword: "opt_out" | "opt_in" | null;
}

/** A delivery report of an SMS we sent. */
export interface SmsStatusReport {
  providerId: string;
  status: SmsStatus;
  errorCode: string | null;
  /** Why it failed, in words (null unless undelivered or failed). */
  error: string | null;
}

export interface SmsProvider {
  readonly name: string;
  /** false: messages are only stored (the outbox). */
  readonly sends: boolean;
  send(message: SmsSendRequest): Promise<SmsSendResult>;
  /** Whether an inbound webhook really comes from the provider. */
  verify(request: SignedRequest): boolean;
  /** An inbound-SMS webhook's parameters, or null when they are not one. */
  inbound(params: Params): InboundSms | null;
  /** A status callback's parameters, or null when they are not one. */
  statusReport(params: Params): SmsStatusReport | null;
}

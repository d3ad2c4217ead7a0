/**
 * The SMS provider contract and registry (server/sms): adding a provider is adding an entry to
 * SMS_PROVIDERS. The default, `outbox`, sends nothing: messages stay in the SMS outbox, readable
 * by admins, as mails do without SMTP.
 */
import type { SmsStatus } from "../../schemas/sms";
import type { Config, SmsConfig } from "../config";
import { createTwilioProvider } from "./twilio";

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

const outboxProvider: SmsProvider = {
  name: "outbox",
  sends: false,
  async send() {
    return { ok: false, retry: false, error: "No SMS provider is configured", errorCode: null };
  },
  // Nothing can sign for a provider that does not exist: every webhook is refused.
  verify: () => false,
  inbound: () => null,
  statusReport: () => null,
};

type ProviderFactory<K extends SmsConfig["kind"]> = (
  sms: Extract<SmsConfig, { kind: K }>,
  config: Config,
) => SmsProvider;

/** Providers by `SMS_PROVIDER`. Keys sorted. */
export const SMS_PROVIDERS: { [K in SmsConfig["kind"]]: ProviderFactory<K> } = {
  outbox: () => outboxProvider,
  twilio: (sms, config) => createTwilioProvider(sms, { allowPrivate: config.outboundAllowPrivate }),
};

/** The provider the configuration names. */
export function createSmsProvider(config: Config): SmsProvider {
  const factory = SMS_PROVIDERS[config.sms.kind] as ProviderFactory<SmsConfig["kind"]>;
  return factory(config.sms, config);
}

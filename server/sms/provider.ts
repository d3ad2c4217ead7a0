/**
 * The SMS provider registry (server/sms): adding a provider is adding an entry to SMS_PROVIDERS
 * (what a provider is: contract.ts). The default, `outbox`, sends nothing: messages stay in the
 * SMS outbox, readable by admins, as mails do without SMTP.
 */
import type { Config, SmsConfig } from "../config";
import type { SmsProvider } from "./contract";
import { createTwilioProvider } from "./twilio";

export type {
  InboundSms,
  SignedRequest,
  SmsProvider,
  SmsSendRequest,
  SmsSendResult,
  SmsStatusReport,
} from "./contract";

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

import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has safe defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      databaseUrl: null,
      accessTokenTtl: 900,
      refreshTokenTtl: 2592000,
      resetTokenTtl: 1800,
      adminEmail: "admin@example.com",
      adminPassword: null,
      smtpUrl: null,
      publicUrl: "http://localhost:8080",
    });
    expect(c.dataDir.endsWith("/data")).toBe(true);
  });

  it.each([
    [{ PORT: "abc" }, "PORT must be a whole number"],
    [{ PORT: "70000" }, "PORT must be at most 65535"],
    [{ ACCESS_TOKEN_TTL: "0" }, "ACCESS_TOKEN_TTL must be a whole number of at least 1"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must start with postgres:"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL must be a URL"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET must be at least 32 characters"],
    [{ ENCRYPTION_KEY: "short" }, "ENCRYPTION_KEY must be at least 32 characters"],
    [{ ADMIN_PASSWORD: "short" }, "ADMIN_PASSWORD must be at least 8 characters"],
    [{ TRUST_PROXY: "maybe" }, "TRUST_PROXY must be true or false"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL must be one of"],
    [{ SMTP_URL: "http://x" }, "SMTP_URL must start with smtp:"],
    [{ CRM_INBOUND_SMTP_PORT: "2525" }, "CRM_INBOUND_DOMAIN is required when CRM_INBOUND_SMTP_PORT is set"],
    [{ CRM_INBOUND_DOMAIN: "not a domain" }, "CRM_INBOUND_DOMAIN must be a domain name"],
    [
      { CRM_INBOUND_DOMAIN: "r.example.com", CRM_INBOUND_SMTP_PORT: "0" },
      "CRM_INBOUND_SMTP_PORT must be a whole",
    ],
    [
      { CRM_INBOUND_DOMAIN: "r.example.com", CRM_INBOUND_SMTP_PORT: "99999" },
      "CRM_INBOUND_SMTP_PORT must be at most",
    ],
    [{ CRM_INBOUND_SMTP_HOST: "a b" }, "CRM_INBOUND_SMTP_HOST must be an IP address or host name"],
    [{ CRM_INBOUND_MAX_MB: "0" }, "CRM_INBOUND_MAX_MB must be a whole number of at least 1"],
    [{ SMS_PROVIDER: "pigeon" }, "SMS_PROVIDER must be 'outbox' or 'twilio'"],
    [
      { SMS_PROVIDER: "twilio", TWILIO_FROM: "+15550001111" },
      "TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required",
    ],
    [
      { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t" },
      "TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID",
    ],
    [
      { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: "AC/../x", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "+1555" },
      "TWILIO_ACCOUNT_SID must be letters and digits only",
    ],
  ])("refuses %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("keeps the CRM's reply listener off unless a port is set", () => {
    expect(loadConfig({}).crmInbound).toEqual({
      domain: null,
      port: null,
      host: "127.0.0.1",
      maxBytes: 10 * 1024 * 1024,
    });
    expect(
      loadConfig({ CRM_INBOUND_DOMAIN: "Replies.Example.COM", CRM_INBOUND_SMTP_PORT: "2525" }).crmInbound,
    ).toMatchObject({ domain: "replies.example.com", port: 2525 });
  });

  it("keeps SMS in the outbox unless a provider is configured", () => {
    expect(loadConfig({}).sms).toEqual({ kind: "outbox" });
    expect(
      loadConfig({
        SMS_PROVIDER: "twilio",
        TWILIO_ACCOUNT_SID: "AC123",
        TWILIO_AUTH_TOKEN: "secret",
        TWILIO_MESSAGING_SERVICE_SID: "MG1",
        TWILIO_API_URL: "http://127.0.0.1:9999/",
      }).sms,
    ).toEqual({
      kind: "twilio",
      accountSid: "AC123",
      authToken: "secret",
      from: null,
      messagingServiceSid: "MG1",
      apiUrl: "http://127.0.0.1:9999",
    });
  });

  it("strips a trailing slash from PUBLIC_URL", () => {
    expect(loadConfig({ PUBLIC_URL: "https://a.example/" }).publicUrl).toBe("https://a.example");
  });
});

/**
 * The one place that reads the environment (ARCHITECTURE.md §6). Every setting has a safe
 * default; a bad value stops start-up with a message naming the variable.
 */
import path from "node:path";
import { DEFAULT_HISTORY_RETENTION_DAYS } from "../schemas/history";
import { DEFAULT_POOL_SIZES, type PoolSizes } from "./db/postgres";

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /** BigCommerce's API origin (a test's loopback store stands in; the operator's, so never refused as private). */
  bigcommerceApiUrl: string;
  /** PostgreSQL: connections per instance of the requests' pool and of the jobs' (server/db/postgres.ts). */
  databasePools: PoolSizes;
  jwtSecret: string | null;
  /**
   * Key of the secrets kept at rest (server/security/secret-box.ts): calendar passwords, store
   * API tokens. Unset: one generated on first start and stored in the database.
   */
  encryptionKey: string | null;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  resetTokenTtl: number;
  /** Lifetime of an invitation's set-password link, seconds. */
  inviteTokenTtl: number;
  /** Absolute session lifetime from sign-in, seconds, whatever the refreshes. */
  sessionMaxAge: number;
  /** Inactivity after which a session ends, seconds (0: no idle timeout). */
  sessionIdleTimeout: number;
  adminEmail: string;
  adminPassword: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** How SMS leave (server/sms): kept in the SMS outbox (default), or sent through a provider. */
  sms: SmsConfig;
  authMaxAttempts: number;
  authMaxAttemptsIp: number;
  logLevel: string;
  trustProxy: boolean;
  /**
   * Outbound calls (webhooks, automation HTTP steps) may reach private, loopback and
   * link-local addresses. Off by default (server/http/outbound.ts); tests turn it on.
   */
  outboundAllowPrivate: boolean;
  /** Public form submissions accepted per IP address and minute (`FORMS_RATE_LIMIT`). */
  formsRateLimit: number;
  /** Days a record's history is kept (HISTORY_RETENTION_DAYS); older entries are pruned by a job. */
  historyRetentionDays: number;
  /** How long a checked session may be reused without a lookup, ms (0: never). */
  sessionCacheMs: number;
  /** Folder of the built SPA. */
  clientDir: string;
  /** Where files live (server/storage). */
  storage: StorageConfig;
  /** Largest accepted upload, bytes. */
  uploadMaxBytes: number;
  /** Most pixels (width × height) an uploaded image may declare; larger ones are refused. */
  imageMaxPixels: number;
  /** CSP `frame-ancestors` sources of the public pages (the catalogue viewer): who may embed them. */
  frameAncestors: string;
  /** Replies to emails sent from the CRM (server/modules/crm/inbound-smtp.ts). */
  crmInbound: CrmInboundConfig;
}

export interface CrmInboundConfig {
  /**
   * `CRM_INBOUND_DOMAIN`: domain of the per-thread reply addresses (`reply+<token>@domain`),
   * whose mail reaches an inbound listener. null: replies go to the sender's own address.
   */
  domain: string | null;
  /** `CRM_INBOUND_SMTP_PORT`: this instance's SMTP listener; null: none here. */
  port: number | null;
  /** `CRM_INBOUND_SMTP_HOST`: the listener's address. */
  host: string;
  /** `CRM_INBOUND_MAX_MB`: largest reply accepted, bytes. */
  maxBytes: number;
}

export type StorageConfig =
  | { kind: "local" }
  | {
      kind: "s3";
      /** null: AWS's own endpoint for the region. */
      endpoint: string | null;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
    };

/** `SMS_PROVIDER`: `outbox` (default: stored, readable under SMS outbox) or a Twilio-compatible API. */
export type SmsConfig =
  | { kind: "outbox" }
  | {
      kind: "twilio";
      accountSid: string;
      authToken: string;
      /** The sender number (E.164) or alphanumeric sender ID; or null with a messaging service. */
      from: string | null;
      messagingServiceSid: string | null;
      /** Origin of the Messages API (Twilio's, or a compatible provider's). */
      apiUrl: string;
    };

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got '${raw}'`);
  }
  return Number(raw);
}

function url(env: Env, name: string, fallback: string | null, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got '${raw}'`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.join(" or ")}, got '${parsed.protocol}'`);
  }
  return raw;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'`);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Reads and validates the configuration; throws ConfigError on the first bad value. */
export function loadConfig(env: Env = process.env): Config {
  const publicUrl = url(env, "PUBLIC_URL", null, ["http:", "https:"]);
  const port = int(env, "PORT", 8080, 0);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got '${port}'`);
  const jwtSecret = env.JWT_SECRET || null;
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError("JWT_SECRET must be at least 32 characters");
  }
  const encryptionKey = env.ENCRYPTION_KEY || null;
  if (encryptionKey !== null && encryptionKey.length < 32) {
    throw new ConfigError("ENCRYPTION_KEY must be at least 32 characters");
  }
  const adminEmail = env.ADMIN_EMAIL || "admin@example.com";
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(`ADMIN_EMAIL must be an email address, got '${adminEmail}'`);
  }
  const adminPassword = env.ADMIN_PASSWORD || null;
  if (adminPassword !== null && adminPassword.length < 8) {
    throw new ConfigError("ADMIN_PASSWORD must be at least 8 characters");
  }
  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got '${logLevel}'`);
  }
  const storage = loadStorageConfig(env);
  return {
    port,
    host: env.HOST || "0.0.0.0",
    publicUrl: (publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    dataDir: path.resolve(env.DATA_DIR || "data"),
    databaseUrl: url(env, "DATABASE_URL", null, ["postgres:", "postgresql:"]),
    databasePools: {
      requests: int(env, "DATABASE_POOL_SIZE", DEFAULT_POOL_SIZES.requests, 1),
      jobs: int(env, "DATABASE_JOBS_POOL_SIZE", DEFAULT_POOL_SIZES.jobs, 1),
    },
    jwtSecret,
    encryptionKey,
    accessTokenTtl: int(env, "ACCESS_TOKEN_TTL", 15 * 60),
    refreshTokenTtl: int(env, "REFRESH_TOKEN_TTL", 30 * 24 * 3600),
    resetTokenTtl: int(env, "RESET_TOKEN_TTL", 30 * 60),
    inviteTokenTtl: int(env, "INVITE_TOKEN_TTL", 7 * 24 * 3600),
    sessionMaxAge: int(env, "SESSION_MAX_AGE", 90 * 24 * 3600),
    sessionIdleTimeout: int(env, "SESSION_IDLE_TIMEOUT", 0, 0),
    adminEmail: adminEmail.toLowerCase(),
    adminPassword,
    smtpUrl: url(env, "SMTP_URL", null, ["smtp:", "smtps:"]),
    mailFrom: env.MAIL_FROM || "Atelier <no-reply@localhost>",
    sms: loadSmsConfig(env),
    authMaxAttempts: int(env, "AUTH_MAX_ATTEMPTS", 10),
    authMaxAttemptsIp: int(env, "AUTH_MAX_ATTEMPTS_IP", 100),
    logLevel,
    trustProxy: bool(env, "TRUST_PROXY", false),
    outboundAllowPrivate: bool(env, "OUTBOUND_ALLOW_PRIVATE", false),
    bigcommerceApiUrl: (
      url(env, "BIGCOMMERCE_API_URL", "https://api.bigcommerce.com", ["https:", "http:"]) as string
    ).replace(/\/+$/, ""),
    formsRateLimit: int(env, "FORMS_RATE_LIMIT", 30),
    historyRetentionDays: int(env, "HISTORY_RETENTION_DAYS", DEFAULT_HISTORY_RETENTION_DAYS),
    sessionCacheMs: int(env, "SESSION_CACHE_MS", 5000, 0),
    clientDir: path.resolve(env.CLIENT_DIR || "dist/client"),
    storage,
    uploadMaxBytes: int(env, "UPLOAD_MAX_MB", 512) * 1024 * 1024,
    imageMaxPixels: int(env, "IMAGE_MAX_PIXELS", 100_000_000),
    frameAncestors: frameAncestors(env),
    crmInbound: crmInbound(env),
  };
}

const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The CRM's reply listener: off unless a port is set, and then only with a domain to accept. */
function crmInbound(env: Env): CrmInboundConfig {
  const domain = env.CRM_INBOUND_DOMAIN?.trim().toLowerCase() || null;
  if (domain !== null && !HOSTNAME.test(domain)) {
    throw new ConfigError(
      `CRM_INBOUND_DOMAIN must be a domain name such as replies.example.com, got '${domain}'`,
    );
  }
  const rawPort = env.CRM_INBOUND_SMTP_PORT?.trim();
  const port = rawPort ? int(env, "CRM_INBOUND_SMTP_PORT", 0) : null;
  if (port !== null && port > 65535) {
    throw new ConfigError(`CRM_INBOUND_SMTP_PORT must be at most 65535, got '${port}'`);
  }
  if (port !== null && domain === null) {
    throw new ConfigError("CRM_INBOUND_DOMAIN is required when CRM_INBOUND_SMTP_PORT is set");
  }
  const host = env.CRM_INBOUND_SMTP_HOST?.trim() || "127.0.0.1";
  if (!HOSTNAME.test(host) && !/^[0-9a-f:.]+$/i.test(host)) {
    throw new ConfigError(`CRM_INBOUND_SMTP_HOST must be an IP address or host name, got '${host}'`);
  }
  return { domain, port, host, maxBytes: int(env, "CRM_INBOUND_MAX_MB", 10) * 1024 * 1024 };
}

/**
 * `FRAME_ANCESTORS`: a space-separated list of origins (`https://shop.example.com`, wildcard
 * subdomains `https://*.example.com`) and/or `'self'`, or `'none'` alone. Anything else is
 * refused: the value goes into a CSP header as is.
 */
function frameAncestors(env: Env): string {
  const raw = env.FRAME_ANCESTORS?.trim();
  if (!raw) return "'self'";
  const keyword = (token: string) => token.replace(/^'|'$/g, "").toLowerCase();
  const sources = raw.split(/\s+/).map((token) => {
    if (["self", "none"].includes(keyword(token))) return `'${keyword(token)}'`;
    if (/^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?\/?$/i.test(token))
      return token.replace(/\/$/, "");
    throw new ConfigError(
      `FRAME_ANCESTORS must be origins such as https://shop.example.com, 'self' or 'none', got '${token}'`,
    );
  });
  if (sources.includes("'none'") && sources.length > 1) {
    throw new ConfigError("FRAME_ANCESTORS: 'none' cannot be combined with other sources");
  }
  return sources.join(" ");
}

function loadStorageConfig(env: Env): StorageConfig {
  const kind = env.STORAGE || "local";
  if (kind === "local") return { kind };
  if (kind !== "s3") throw new ConfigError(`STORAGE must be 'local' or 's3', got '${kind}'`);
  const endpoint = url(env, "S3_ENDPOINT", null, ["http:", "https:"]);
  const bucket = env.S3_BUCKET || "";
  if (!bucket) throw new ConfigError("S3_BUCKET is required when STORAGE=s3");
  const accessKeyId = env.S3_ACCESS_KEY_ID || "";
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || "";
  if (!accessKeyId || !secretAccessKey) {
    throw new ConfigError("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when STORAGE=s3");
  }
  return {
    kind,
    endpoint,
    bucket,
    region: env.S3_REGION || "us-east-1",
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, "S3_FORCE_PATH_STYLE", endpoint !== null),
  };
}

function loadSmsConfig(env: Env): SmsConfig {
  const kind = env.SMS_PROVIDER || "outbox";
  if (kind === "outbox") return { kind };
  if (kind !== "twilio") throw new ConfigError(`SMS_PROVIDER must be 'outbox' or 'twilio', got '${kind}'`);
  const accountSid = env.TWILIO_ACCOUNT_SID || "";
  const authToken = env.TWILIO_AUTH_TOKEN || "";
  if (!accountSid || !authToken) {
    throw new ConfigError("TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required when SMS_PROVIDER=twilio");
  }
  if (!/^[A-Za-z0-9]{1,64}$/.test(accountSid)) {
    throw new ConfigError("TWILIO_ACCOUNT_SID must be letters and digits only (it goes into the API's path)");
  }
  const from = env.TWILIO_FROM || null;
  const messagingServiceSid = env.TWILIO_MESSAGING_SERVICE_SID || null;
  if (!from && !messagingServiceSid) {
    throw new ConfigError("TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID is required when SMS_PROVIDER=twilio");
  }
  const apiUrl = url(env, "TWILIO_API_URL", "https://api.twilio.com", ["http:", "https:"]) as string;
  return { kind, accountSid, authToken, from, messagingServiceSid, apiUrl: apiUrl.replace(/\/+$/, "") };
}

/**
 * Token primitives. Access tokens are short-lived HS256 JWTs carrying the session id
 * (`sid`) so a revoked session stops them at once. Refresh tokens are opaque random
 * strings stored only as SHA-256 hashes.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { createSigner, createVerifier, TokenError } from "fast-jwt";

export interface AccessClaims {
  sub: string;
  sid: string;
  typ: "access";
}

export type VerifyResult =
  | { ok: true; claims: AccessClaims }
  | { ok: false; reason: "expired"; claims: AccessClaims }
  | { ok: false; reason: "invalid" };

export interface TokenService {
  signAccess(claims: Omit<AccessClaims, "typ">): { token: string; expiresAt: number };
  verifyAccess(token: string): VerifyResult;
  /** The successor of a refresh token: derived, so a retried refresh gets the same pair. */
  nextRefreshToken(current: string): string;
  /**
   * A MAC of `data` with the server's secret, for links it signs (a mail's tracking pixel and
   * links): `purpose` keeps one kind of signature from standing in for another.
   */
  mac(purpose: string, data: string): string;
}

export const newOpaqueToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

function isClaims(value: unknown): value is AccessClaims {
  const v = value as Partial<AccessClaims> | null;
  return !!v && v.typ === "access" && typeof v.sub === "string" && typeof v.sid === "string";
}

/**
 * Access tokens already verified, until they expire: the same token comes with every request of
 * a session, and its HMAC check costs more than a lookup. Keyed by the token itself (a different
 * token is a different key, never a collision); fast-jwt's own cache would key it by a SHA-2
 * hash, which costs about what it saves. The oldest entries go first past MAX_VERIFIED.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  get(token: string): AccessClaims | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.claims;
    this.entries.delete(token);
    return undefined;
  }

  add(token: string, claims: AccessClaims & { exp?: unknown }): void {
    // A token without an expiry is never cached: fast-jwt decides about it every time.
    if (typeof claims.exp !== "number") return;
    if (this.entries.size >= MAX_VERIFIED) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { claims, expiresAt: claims.exp * 1000 });
  }
}

const MAX_VERIFIED = 10_000;

export function createTokenService(secret: string, accessTtlSeconds: number): TokenService {
  const signer = createSigner({ key: secret, algorithm: "HS256", expiresIn: accessTtlSeconds * 1000 });
  const verifier = createVerifier({ key: secret, algorithms: ["HS256"] });
  const lenient = createVerifier({ key: secret, algorithms: ["HS256"], ignoreExpiration: true });
  const verified = new VerifiedTokens();

  return {
    signAccess(claims) {
      const token = signer({ ...claims, typ: "access" });
      return { token, expiresAt: Date.now() + accessTtlSeconds * 1000 };
    },
    verifyAccess(token) {
      const known = verified.get(token);
      if (known) return { ok: true, claims: known };
      try {
        const payload: unknown = verifier(token);
        if (!isClaims(payload)) return { ok: false, reason: "invalid" };
        verified.add(token, payload);
        return { ok: true, claims: payload };
      } catch (error) {
        if (!(error instanceof TokenError) || error.code !== TokenError.codes.expired) {
          return { ok: false, reason: "invalid" };
        }
        // Only a genuine token may be told it expired: check the signature again without expiry.
        try {
          const payload: unknown = lenient(token);
          return isClaims(payload)
            ? { ok: false, reason: "expired", claims: payload }
            : { ok: false, reason: "invalid" };
        } catch {
          return { ok: false, reason: "invalid" };
        }
      }
    },
    nextRefreshToken(current) {
      return createHmac("sha256", secret).update(`refresh:${current}`).digest("base64url");
    },
    mac(purpose, data) {
      return createHmac("sha256", secret).update(`mac:${purpose}:${data}`).digest("base64url");
    },
  };
}

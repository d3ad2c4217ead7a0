/**
 * The log's secret rules as pure functions: URL redaction from route declarations, the
 * scrubbing of values from log arguments, and the check that finds a route that forgot to
 * declare a secret-looking parameter.
 */
import { describe, expect, it } from "vitest";
import { scrubbed, undeclaredSecrets } from "./log-secrets";
import { REDACTED, redactUrl, SecretRoutes } from "./redact";

describe("SecretRoutes.redact", () => {
  const routes = new SecretRoutes();
  routes.add("/public/proposals/:token", { params: ["token"] });
  routes.add("/public/proposals/:token/accept", { params: ["token"] });
  routes.add("/hooks/automations/:id/:secret", { params: ["secret"] });
  routes.add("/assets/*", { params: ["*"] });
  routes.add("/files/:name.:ext", { params: ["name"] });
  routes.add("/api/things", { query: ["access_token"] });

  it("replaces each declared path parameter, and nothing else of the path", () => {
    expect(routes.redact("/public/proposals/abc123")).toBe(`/public/proposals/${REDACTED}`);
    expect(routes.redact("/public/proposals/abc123/accept")).toBe(`/public/proposals/${REDACTED}/accept`);
    expect(routes.redact("/hooks/automations/7f1c/s3cr3t")).toBe(`/hooks/automations/7f1c/${REDACTED}`);
    expect(routes.redact("/files/report.pdf")).toBe(`/files/${REDACTED}`);
    expect(routes.redact("/assets/ab/cd/file.png?w=320&format=webp")).toBe(
      `/assets/${REDACTED}?w=320&format=webp`,
    );
    expect(routes.redact("/public/pdfs/abc")).toBe("/public/pdfs/abc");
    expect(routes.redact("/assets")).toBe("/assets");
  });

  it("matches the path however it is spelled: unrouted suffixes, case, encoding, doubled slashes", () => {
    // A mistyped or wrong-method request is a 404 with the same secret in its URL.
    expect(routes.redact("/public/proposals/abc123/bogus")).toBe(`/public/proposals/${REDACTED}/bogus`);
    expect(routes.redact("/PUBLIC/Proposals/abc123")).toBe(`/PUBLIC/Proposals/${REDACTED}`);
    expect(routes.redact("/public/%70roposals/abc123")).toBe(`/public/%70roposals/${REDACTED}`);
    expect(routes.redact("//public//proposals/abc123/")).toBe(`//public//proposals/${REDACTED}/`);
    expect(routes.redact("/public/proposals/a%2Fb/accept")).toBe(`/public/proposals/${REDACTED}/accept`);
  });

  it("matches an absolute-form target (routed by its path) and paths with dot segments", () => {
    expect(routes.redact("http://h:8080/hooks/automations/7f1c/s3cr3t")).toBe(
      `http://h:8080/hooks/automations/7f1c/${REDACTED}`,
    );
    expect(routes.redact("https://u:pw@h/public/proposals/abc123?x=1")).toBe(
      `https://${REDACTED}@h/public/proposals/${REDACTED}?x=1`,
    );
    expect(routes.redact("/public/./proposals/abc123")).toBe(`/public/./proposals/${REDACTED}`);
    expect(routes.redact("/public/%2E/proposals/abc123")).toBe(`/public/%2E/proposals/${REDACTED}`);
    expect(routes.redact("/x/../public/proposals/abc123")).toBe(`/x/../public/proposals/${REDACTED}`);
    expect(routes.redact("/public/proposals/abc123/..")).toBe(`/public/proposals/${REDACTED}/..`);
    expect(routes.redact("/assets/./a/b.png")).toBe(`/assets/./${REDACTED}`);
    // Dots skipped as well as resolved: in a log, one redaction too many beats one too few.
    expect(routes.redact("/public/../proposals/abc123")).toBe(`/public/../proposals/${REDACTED}`);
  });

  it("replaces a query value each time its name is repeated", () => {
    expect(routes.redact("/x?access_token=a1b2&access_token=c3d4")).toBe(
      `/x?access_token=${REDACTED}&access_token=${REDACTED}`,
    );
  });

  it("replaces declared query values under any route, any case, keeping the rest", () => {
    expect(routes.redact("/x?a=1&access_token=tok&b=2")).toBe(`/x?a=1&access_token=${REDACTED}&b=2`);
    expect(routes.redact("/x?ACCESS_TOKEN=tok")).toBe(`/x?ACCESS_TOKEN=${REDACTED}`);
    expect(routes.redact("/x?access%5Ftoken=tok")).toBe(`/x?access%5Ftoken=${REDACTED}`);
    expect(routes.redact("/x?access_token[]=tok")).toBe(`/x?access_token[]=${REDACTED}`);
    expect(routes.redact("/x?token=tok")).toBe("/x?token=tok");
  });

  it("applies every rule that matches, a wildcard's among them", () => {
    const both = new SecretRoutes();
    both.add("/files/*", { params: ["*"] });
    both.add("/files/:bucket/:key/:size", { params: ["key"] });
    expect(both.redact("/files/b/k/s")).toBe(`/files/${REDACTED}`);
    const reversed = new SecretRoutes();
    reversed.add("/files/:bucket/:key/:size", { params: ["key"] });
    reversed.add("/files/*", { params: ["*"] });
    expect(reversed.redact("/files/b/k/s?x=1")).toBe(`/files/${REDACTED}?x=1`);
  });

  it("keeps the reset-link rule, query and all", () => {
    expect(routes.redact("/manage/resetpassword/12/abc?x=1")).toBe(`/manage/resetpassword/${REDACTED}`);
    expect(redactUrl("/manage/resetpassword/abc")).toBe(`/manage/resetpassword/${REDACTED}`);
  });

  it("refuses a declaration naming a parameter the route does not have", () => {
    expect(() => new SecretRoutes().add("/a/:id", { params: ["token"] })).toThrow(/token/);
  });
});

describe("scrubbed", () => {
  it("removes the values from strings, objects, arrays and errors, leaving other objects alone", () => {
    const error = Object.assign(new Error('invalid input syntax for type uuid: "s3cr3t-value"'), {
      code: "22P02",
      detail: ["s3cr3t-value"],
    });
    const other = new (class Request {
      url = "/kept";
    })();
    const out = scrubbed({ err: error, note: "at /p/s3cr3t-value", other }, ["s3cr3t-value"]);
    expect(JSON.stringify(out)).not.toContain("s3cr3t-value");
    expect(out).toMatchObject({
      err: { message: `invalid input syntax for type uuid: "${REDACTED}"`, code: "22P02" },
      note: `at /p/${REDACTED}`,
    });
    expect((out as { other: unknown }).other).toBe(other);
    expect((out as { err: unknown }).err).toBeInstanceOf(Error);
  });
});

describe("undeclaredSecrets", () => {
  it("flags a secret-looking path or query parameter that the route does not declare", () => {
    expect(undeclaredSecrets({ url: "/p/:token" })).toEqual(["token"]);
    expect(undeclaredSecrets({ url: "/p/:shareToken/:id" })).toEqual(["shareToken"]);
    expect(undeclaredSecrets({ url: "/p/:id", querystring: { properties: { api_key: {}, q: {} } } })).toEqual(
      ["api_key"],
    );
    expect(undeclaredSecrets({ url: "/h/:id/:secret", config: { secrets: { params: ["secret"] } } })).toEqual(
      [],
    );
    expect(undeclaredSecrets({ url: "/prefs/:key", config: { secrets: { notSecret: ["key"] } } })).toEqual(
      [],
    );
    expect(undeclaredSecrets({ url: "/p/:id/:slug" })).toEqual([]);
  });
});

/**
 * The OpenAPI document a real server serves at /api/docs/json is valid by a standard validator
 * (@apidevtools/swagger-parser), and a client generator (openapi-typescript, through its Node
 * API) turns it into TypeScript that parses. Issue 13: the document said 3.0.3 while its schemas
 * used JSON Schema's numeric `exclusiveMinimum`, which 3.0 validators reject.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_VERSION } from "../../server/http/docs";
import { startServer, type TestServer } from "./harness";

/** The part of an OpenAPI document this test reads. */
interface Document {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

describe("the OpenAPI document", () => {
  let s: TestServer;
  let doc: Document;

  beforeAll(async () => {
    s = await startServer("pglite");
    const answer = await s.api<Document>("GET", "/api/docs/json");
    expect(answer.status).toBe(200);
    doc = answer.body;
  });
  afterAll(() => s?.close());

  it("declares OpenAPI 3.1, the version whose schemas are JSON Schema", () => {
    expect(OPENAPI_VERSION).toBe("3.1.0");
    expect(doc.openapi).toBe(OPENAPI_VERSION);
  });

  it("passes swagger-parser's validation (structure and schemas)", async () => {
    // validate() dereferences in place: give it a copy.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never);
    expect(Object.keys(validated.paths ?? {}).length).toBe(Object.keys(doc.paths).length);
  });

  it("still carries the hotspot link's exclusive minimum (w and h above 0) as 3.1 writes it", () => {
    const text = JSON.stringify(doc);
    expect(text).toMatch(/"w":\{"type":"number","exclusiveMinimum":0,"maximum":1\}/);
  });

  it("generates typed client code with openapi-typescript", async () => {
    const ast = await openapiTS(structuredClone(doc) as never, { silent: true });
    const code = astToString(ast);
    // The generated module parses as TypeScript…
    const { diagnostics } = ts.transpileModule(code, {
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    expect(diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    // …and describes every path, with the types the schemas give.
    expect(code).toMatch(/export interface paths \{/);
    for (const path of Object.keys(doc.paths)) expect(code).toContain(JSON.stringify(path));
    expect(code).toMatch(/\bw: number;/);
  });

  it("keeps the browsable reference at /api/docs", async () => {
    const page = await fetch(`${s.baseUrl}/api/docs`, { redirect: "follow" });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger-ui/i);
  });
});

import { describe, expect, it } from "vitest";
import { getErrorMessage, getFieldErrors, SOMETHING_WENT_WRONG } from "../src/lib/errors";
import { PublicCallError, postPublic } from "./public-call";

const answer = (status: number, body: string) => async () => new Response(body, { status });

describe("postPublic", () => {
  it("resolves with the parsed answer of a 2xx", async () => {
    let sent: RequestInit | undefined;
    const data = await postPublic<{ ok: boolean }>("/api/x", { a: 1 }, async (_url, init) => {
      sent = init;
      return new Response('{"ok":true}', { status: 200 });
    });
    expect(data).toEqual({ ok: true });
    expect(sent?.method).toBe("POST");
    expect(sent?.body).toBe('{"a":1}');
  });

  it("rejects a refusal with the server's words and fields, as the screens read them", async () => {
    const body = JSON.stringify({
      message: "Invalid email or password",
      details: [{ field: "email", message: "Email is required" }],
    });
    const error = await postPublic("/api/x", {}, answer(401, body)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublicCallError);
    expect((error as PublicCallError).response?.status).toBe(401);
    expect(getErrorMessage(error)).toBe("Invalid email or password");
    expect(getFieldErrors(error)).toEqual([{ field: "email", message: "Email is required" }]);
  });

  it("says 'Something Went Wrong' for no answer or an answer that is not JSON", async () => {
    const none = await postPublic("/api/x", {}, async () => {
      throw new TypeError("Failed to fetch");
    }).catch((e: unknown) => e);
    expect(getErrorMessage(none)).toBe(SOMETHING_WENT_WRONG);
    expect((none as PublicCallError).response).toBeUndefined();
    const html = await postPublic("/api/x", {}, answer(502, "<html>Bad gateway</html>")).catch(
      (e: unknown) => e,
    );
    expect(getErrorMessage(html)).toBe(SOMETHING_WENT_WRONG);
    expect((html as PublicCallError).response?.status).toBe(502);
  });
});

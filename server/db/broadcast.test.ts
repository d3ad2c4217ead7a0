/**
 * `splitUtf8`: the parts of a long broadcast fit NOTIFY's byte bound and join back to the
 * same text. tests/server/realtime-cluster.test.ts sends a long message between instances.
 */
import { describe, expect, it } from "vitest";
import { changeNotices, splitUtf8 } from "./broadcast";

describe("splitUtf8", () => {
  it("cuts at the byte bound, never inside a character, and joins back to the text", () => {
    const text = `${"a".repeat(10)}é€😀${"ü".repeat(7)}x`; // 1-, 2-, 3- and 4-byte characters
    for (const max of [4, 5, 7, 16]) {
      const parts = splitUtf8(text, max);
      expect(parts.join("")).toBe(text);
      for (const part of parts) {
        expect(Buffer.byteLength(part)).toBeLessThanOrEqual(max);
        expect(Buffer.from(part).toString()).toBe(part); // no half character at either end
      }
    }
    // A lone surrogate is sent as U+FFFD, 3 bytes.
    const lone = splitUtf8("ab\ud800cd", 4);
    expect(lone.join("")).toBe("ab\ud800cd");
    for (const part of lone) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(4);
    expect(splitUtf8("aé€", 3)).toEqual(["aé", "€"]);
    expect(splitUtf8("😀😀", 4)).toEqual(["😀", "😀"]);
  });

  it("keeps a short text whole", () => {
    expect(splitUtf8("", 10)).toEqual([""]);
    expect(splitUtf8("short", 10)).toEqual(["short"]);
  });
});

describe("changeNotices", () => {
  /** A send that waits until released, recording what went out. */
  function fakeSend() {
    const sent: string[] = [];
    const waiting: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
    const send = (channel: string, payload: string) =>
      new Promise<void>((resolve, reject) => {
        sent.push(`${channel}:${payload}`);
        waiting.push({ resolve, reject });
      });
    const settle = (error?: Error) => {
      const next = waiting.shift();
      if (!next) throw new Error("nothing on its way");
      if (error) next.reject(error);
      else next.resolve();
    };
    /** Until `n` NOTIFYs went out (the window is 0 ms: a timer turn). */
    const sentCount = async (n: number) => {
      const deadline = Date.now() + 2000;
      while (sent.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      return sent.length;
    };
    return { sent, send, settle, sentCount };
  }

  it("tells every change in the window by one NOTIFY, and changes made meanwhile by one after it", async () => {
    const { sent, send, settle, sentCount } = fakeSend();
    const notice = changeNotices(send, 0);
    const first = [notice("c", "changed"), notice("c", "changed")];
    expect(first[0]).toBe(first[1]);
    expect(await sentCount(1)).toBe(1);
    // Three changes while the first is on its way: one NOTIFY after it tells all three.
    const during = [notice("c", "changed"), notice("c", "changed"), notice("c", "changed")];
    expect(new Set(during).size).toBe(1);
    // Another channel is a wave of its own.
    const other = notice("d", "changed");
    expect(await sentCount(2)).toBe(2);
    expect(sent).toEqual(["c:changed", "d:changed"]);
    settle();
    await first[0];
    expect(await sentCount(3)).toBe(3);
    expect(sent[2]).toBe("c:changed");
    settle();
    await other;
    settle();
    await during[0];
    // Nothing on its way: the next change is sent after the window alone.
    void notice("c", "changed");
    expect(await sentCount(4)).toBe(4);
    settle();
  });

  it("a failed NOTIFY fails its callers; the one after it still goes", async () => {
    const { send, settle, sentCount } = fakeSend();
    const notice = changeNotices(send, 0);
    const first = notice("c", "changed");
    await sentCount(1);
    const second = notice("c", "changed");
    const failed = expect(first).rejects.toThrow("down");
    settle(new Error("down"));
    await failed;
    expect(await sentCount(2)).toBe(2);
    settle();
    await expect(second).resolves.toBeUndefined();
  });
});

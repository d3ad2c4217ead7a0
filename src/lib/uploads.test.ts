import { describe, expect, it } from "vitest";
import { formatBytes, queued, runLimited, sendingPercentage, updateUpload, uploadSummary } from "./uploads";

describe("uploadProgress", () => {
  it("starts every file pending at 0 percent", () => {
    let n = 0;
    const list = queued(
      [
        { name: "a.png", size: 10 },
        { name: "b.png", size: 30 },
      ],
      () => `u${++n}`,
    );
    expect(list).toEqual([
      { id: "u1", name: "a.png", size: 10, state: "pending", percentage: 0 },
      { id: "u2", name: "b.png", size: 30, state: "pending", percentage: 0 },
    ]);
  });

  it("holds at 99 percent until the server has answered", () => {
    expect(sendingPercentage(0)).toBe(0);
    expect(sendingPercentage(0.505)).toBe(50);
    expect(sendingPercentage(1)).toBe(99);
    expect(sendingPercentage(-1)).toBe(0);
  });

  it("sums the queue by bytes, counting done and failed files", () => {
    let list = queued(
      [
        { name: "a", size: 100 },
        { name: "b", size: 300 },
        { name: "c", size: 100 },
      ],
      (() => {
        let n = 0;
        return () => `u${++n}`;
      })(),
    );
    list = updateUpload(list, "u1", { state: "done", percentage: 100 });
    list = updateUpload(list, "u2", { state: "uploading", percentage: 50 });
    expect(uploadSummary(list)).toEqual({ done: 1, failed: 0, active: 2, percentage: 50 });
    list = updateUpload(list, "u3", { state: "error", message: "not allowed" });
    expect(uploadSummary(list)).toMatchObject({ failed: 1, active: 1 });
    expect(uploadSummary([])).toMatchObject({ active: 0, percentage: 100 });
  });
});

describe("runLimited", () => {
  it("never runs more than the limit at once, and one failure does not stop the rest", async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (n === 2) throw new Error("boom");
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 3, 4, 5, 6, 7]);
  });
});

describe("formatBytes", () => {
  it("formats bytes in binary units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 ** 2)).toBe("5.0 MB");
    expect(formatBytes(150 * 1024 ** 3)).toBe("150 GB");
  });
});

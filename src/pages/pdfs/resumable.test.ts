import { describe, expect, it } from "vitest";
import { chunkBytes, chunkCount, missingChunks, uploadedBytes } from "./resumable";

const upload = { size: 25, chunkSize: 10 };

describe("resumable upload arithmetic", () => {
  it("cuts a file into chunks, the last one shorter", () => {
    expect(chunkCount(upload)).toBe(3);
    expect([0, 1, 2, 3].map((i) => chunkBytes(upload, i))).toEqual([10, 10, 5, 0]);
    expect(chunkCount({ size: 20, chunkSize: 10 })).toBe(2);
  });

  it("sends only the chunks the server does not have, in order", () => {
    expect(missingChunks({ ...upload, received: [] })).toEqual([0, 1, 2]);
    expect(missingChunks({ ...upload, received: [1] })).toEqual([0, 2]);
    expect(missingChunks({ ...upload, received: [2, 0, 1] })).toEqual([]);
  });

  it("counts what was sent once per chunk", () => {
    expect(uploadedBytes(upload, [0, 2, 2])).toBe(15);
    expect(uploadedBytes(upload, [])).toBe(0);
  });
});

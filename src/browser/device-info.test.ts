import { afterEach, describe, expect, it, vi } from "vitest";
import { DEVICE_ID_KEY } from "../lib/device";
import { MemoryStorage } from "../lib/memory-storage";
import { getDeviceInfo } from "./device-info";

const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

describe("getDeviceInfo", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("reads navigator, screen and localStorage", () => {
    const storage = new MemoryStorage();
    storage.setItem(DEVICE_ID_KEY, "stored");
    vi.stubGlobal("navigator", {
      userAgent: CHROME_LINUX,
      mimeTypes: { length: 2 },
      plugins: { length: 5 },
    });
    vi.stubGlobal("screen", { height: 1080, width: 1920, pixelDepth: 24 });
    vi.stubGlobal("localStorage", storage);
    expect(getDeviceInfo()).toEqual({
      deviceId: "2501186645373612400053736" + "51080192024/stored",
      deviceName: "Linux Chrome",
    });
  });
});

import { describe, expect, it } from "vitest";
import { DEFAULT_SERVICE_BASES, resolveServiceBases, SERVICE_BASES } from "./service-bases";

describe("service bases", () => {
  it("defaults to the app's own origin", () => {
    expect(resolveServiceBases({})).toEqual({
      api: "",
      assets: "/assets",
      socket: "",
      cms: "/cms",
      publicCms: "/public-cms",
      crm: "/crm",
      forms: "/forms",
      dam: "/dam",
      damSocket: "/dam",
    });
  });

  it("takes each base from its VITE_ variable and drops a trailing slash", () => {
    const bases = resolveServiceBases({
      VITE_API_BASE: "https://api.example.com/",
      VITE_DAM_SOCKET_BASE: "wss://dam.example.com/socket",
      VITE_CMS_BASE: 42,
    });
    expect(bases.api).toBe("https://api.example.com");
    expect(bases.damSocket).toBe("wss://dam.example.com/socket");
    expect(bases.cms).toBe(DEFAULT_SERVICE_BASES.cms);
  });

  it("resolves this build's bases from import.meta.env", () => {
    expect(SERVICE_BASES).toEqual(resolveServiceBases(import.meta.env));
    expect(Object.isFrozen(SERVICE_BASES)).toBe(true);
  });
});

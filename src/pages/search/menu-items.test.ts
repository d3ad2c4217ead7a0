import { describe, expect, it } from "vitest";
import { MODULE_IDS, MODULES } from "../../../resources/modules";
import type { MeResponse } from "../../../schemas/auth";
import { RESOURCES } from "../../layout/resources";
import {
  commandsFor,
  MAX_RECENT,
  matchingCommands,
  readRecent,
  recentKey,
  rememberRecent,
} from "./menu-items";

const me = (moduleIDs: number[], isadmin = false): MeResponse => ({
  userID: "u1",
  first_name: "Ada",
  last_name: "Admin",
  email: "ada@example.com",
  plan_type: "",
  type_user: "user" as MeResponse["type_user"],
  isadmin,
  approverCondition: false,
  userRights: [],
  modules_submodules: [
    {
      modules: MODULES.filter((m) => moduleIDs.includes(m.moduleID)).map(({ moduleID, key, name }) => ({
        moduleID,
        key,
        name,
      })),
      submodules: [],
    },
  ],
});

const titles = (items: { title: string }[]) => items.map((i) => i.title);

describe("the command menu's commands", () => {
  it("are derived from the screens the person may open", () => {
    const crm = commandsFor(RESOURCES, me([MODULE_IDS.crm]));
    expect(titles(crm)).toEqual(
      expect.arrayContaining(["New client", "Go to Clients", "Go to Opportunities", "Go to Home"]),
    );
    expect(titles(crm)).not.toContain("Go to Products");
    expect(titles(crm)).not.toContain("Go to Users");
    // Users and their screens are for administrators.
    expect(titles(commandsFor(RESOURCES, me([MODULE_IDS.users])))).not.toContain("New user");
    expect(titles(commandsFor(RESOURCES, me([MODULE_IDS.users], true)))).toEqual(
      expect.arrayContaining(["New user", "Go to Users", "Go to Mail outbox"]),
    );
    // A resource created elsewhere (a PDF is uploaded) has no "New" command.
    expect(titles(commandsFor(RESOURCES, me([MODULE_IDS.pdf])))).not.toContain("New PDF");
  });

  it("match every word typed, in the title or its module", () => {
    const all = commandsFor(
      RESOURCES,
      me(
        MODULES.map((m) => m.moduleID),
        true,
      ),
    );
    expect(titles(matchingCommands(all, "new cli"))).toEqual(["New client"]);
    expect(titles(matchingCommands(all, "GO TO propo"))).toEqual(["Go to Proposals"]);
    expect(matchingCommands(all, "webhooks").map((c) => c.hint)).toEqual(["CMS", "Forms"]);
    expect(matchingCommands(all, "   ")).toEqual([]);
  });
});

describe("recent items", () => {
  const storage = () => {
    const kept = new Map<string, string>();
    return {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
  };

  it("keep the latest first, once each, at most MAX_RECENT, per user", () => {
    const s = storage();
    for (let i = 0; i < MAX_RECENT + 2; i++) {
      rememberRecent(s, "u1", { title: `Client ${i}`, group: "Clients", path: `/crm/clients/show/${i}` });
    }
    rememberRecent(s, "u1", { title: "Client 3", group: "Clients", path: "/crm/clients/show/3" });
    const recent = readRecent(s, "u1");
    expect(recent).toHaveLength(MAX_RECENT);
    expect(recent.map((r) => r.title).slice(0, 2)).toEqual(["Client 3", `Client ${MAX_RECENT + 1}`]);
    expect(readRecent(s, "u2")).toEqual([]);
  });

  it("ignore what is not theirs to read", () => {
    const s = storage();
    s.setItem(recentKey("u1"), "{not json");
    expect(readRecent(s, "u1")).toEqual([]);
    s.setItem(recentKey("u1"), JSON.stringify([{ title: "x", group: "g", path: "https://evil.example" }, 7]));
    expect(readRecent(s, "u1")).toEqual([]);
  });
});

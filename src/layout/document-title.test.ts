import { describe, expect, it } from "vitest";
import { documentTitle } from "./document-title";

describe("documentTitle", () => {
  const categories = { name: "categories", meta: { label: "Categories" } };

  it("names the screen by its resource, singular on a record's screens, never by an id", () => {
    expect(documentTitle({ action: "list", resource: categories })).toBe("Categories | Atelier");
    expect(documentTitle({ action: "create", resource: categories })).toBe("Create Category | Atelier");
    expect(documentTitle({ action: "show", resource: categories })).toBe("Category | Atelier");
    expect(documentTitle({ action: "edit", resource: categories })).toBe("Edit Category | Atelier");
    const users = { name: "users", meta: { label: "Users" } };
    expect(documentTitle({ action: "edit", resource: users })).toBe("Edit User | Atelier");
    expect(
      documentTitle({ action: "list", resource: { name: "outbox", meta: { label: "Mail outbox" } } }),
    ).toBe("Mail outbox | Atelier");
  });

  it("is the product's name where no resource is known, and on the home screen", () => {
    expect(documentTitle({})).toBe("Atelier");
    expect(documentTitle({ action: "list", resource: { name: "home", meta: { label: "Home" } } })).toBe(
      "Atelier",
    );
  });
});

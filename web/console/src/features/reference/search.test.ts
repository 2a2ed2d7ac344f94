import { describe, expect, it } from "vitest";
import type { Operation, Tag } from "./model";
import { filterTags } from "./search";

const op = (id: string, method: string, path: string, summary: string, description = ""): Operation => ({
  id, method, path, tag: "auth", summary, description, marks: [], auth: [], parameters: [], responses: [],
});

const tags: Tag[] = [
  { name: "auth", description: "", operations: [op("authApiKeyList", "GET", "/api/v1/auth/api-keys", "The user's API keys"), op("authApiKeyCreate", "POST", "/api/v1/auth/api-keys", "Create an API key")] },
  { name: "health", description: "", operations: [op("healthz", "GET", "/healthz", "Health", "Each dependency's status.")] },
];

const ids = (found: Tag[]) => found.flatMap((t) => t.operations.map((o) => o.id));

describe("the reference's search", () => {
  it("keeps every operation for an empty query", () => {
    expect(ids(filterTags(tags, "  "))).toEqual(["authApiKeyList", "authApiKeyCreate", "healthz"]);
  });

  it("wants every word, in any of method, path, id, summary and description, whatever the case", () => {
    expect(ids(filterTags(tags, "post API-KEYS"))).toEqual(["authApiKeyCreate"]);
    expect(ids(filterTags(tags, "dependency"))).toEqual(["healthz"]);
    expect(ids(filterTags(tags, "authapikeylist"))).toEqual(["authApiKeyList"]);
  });

  it("leaves out the tags with nothing found", () => {
    expect(filterTags(tags, "healthz").map((t) => t.name)).toEqual(["health"]);
    expect(filterTags(tags, "nothing-like-this")).toEqual([]);
  });
});

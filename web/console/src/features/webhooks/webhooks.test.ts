import { describe, expect, it } from "vitest";
import { preview } from "./time";
import { webhookTriggers, withoutEndpoint, type WebhookEndpoint } from "./webhooks";

describe("webhookTriggers", () => {
  it("lists the webhook triggers with their keys, labels and auth types", () => {
    const triggers = webhookTriggers([
      { action_key: "orders", label: "Order created", action_type_key: "webhook.trigger", config: { endpoint_key: "order_created", auth_type: "basic" } },
      { action_key: "start", action_type_key: "manual.trigger", config: {} },
      { action_key: "refunds", action_type_key: "webhook.trigger", config: { endpoint_key: "refund" } },
      { action_key: "half_made", action_type_key: "webhook.trigger", config: {} },
      { action_key: "odd", action_type_key: "webhook.trigger", config: { endpoint_key: "odd", auth_type: "magic" } },
    ]);
    expect(triggers).toEqual([
      { endpointKey: "order_created", label: "Order created", authType: "basic" },
      { endpointKey: "refund", label: "refunds", authType: "hmac_standard" },
      { endpointKey: "odd", label: "odd", authType: "hmac_standard" },
    ]);
  });
});

describe("withoutEndpoint", () => {
  it("keeps the triggers no endpoint has the key of", () => {
    const triggers = [
      { endpointKey: "a", label: "A", authType: "none" as const },
      { endpointKey: "b", label: "B", authType: "none" as const },
    ];
    const endpoints = [{ endpoint_key: "a" }] as WebhookEndpoint[];
    expect(withoutEndpoint(triggers, endpoints).map((t) => t.endpointKey)).toEqual(["b"]);
  });
});

describe("preview", () => {
  it("keeps a short text whole", () => {
    expect(preview("hello", 10)).toEqual({ shown: "hello", cut: false });
  });
  it("cuts a long one", () => {
    expect(preview("hello world", 5)).toEqual({ shown: "hello", cut: true });
  });
  it("never splits a character outside the basic plane", () => {
    expect(preview("ab😀cd", 3)).toEqual({ shown: "ab", cut: true });
  });
});

import { describe, expect, it } from "vitest";
import { shownStatus, waitingChanges } from "./status";

describe("shownStatus", () => {
  it("reads an action the cancellation interrupted as cancelled, never failed", () => {
    expect(shownStatus("cancelled")).toBe("cancelled");
    expect(shownStatus("failed", "canceled")).toBe("cancelled");
  });
  it("keeps every other status as the projection says", () => {
    expect(shownStatus("failed", "validation")).toBe("failed");
    expect(shownStatus("waiting")).toBe("waiting");
    expect(shownStatus("skipped", undefined)).toBe("skipped");
  });
});

describe("waitingChanges", () => {
  it("asks for the run again when an action starts waiting, or while the run waits", () => {
    expect(waitingChanges(["action.started", "action.waiting"], "running")).toBe(true);
    expect(waitingChanges(["action.succeeded"], "waiting")).toBe(true);
    expect(waitingChanges(["action.succeeded"], "running")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { addDays, formatDay, formatMonth, momentOn, today } from "./dates";

describe("days", () => {
  it("counts days across months and years", () => {
    expect(addDays("2026-11-25", 7)).toBe("2026-12-02");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2027-03-01", -1)).toBe("2027-02-28");
  });
  it("is today in the person's own calendar", () => {
    expect(today(new Date(2026, 10, 27, 23, 59))).toBe("2026-11-27");
  });
  it("writes a day as each language does, whatever the time zone", () => {
    expect(formatDay("2026-11-25", "en")).toBe("Nov 25, 2026");
    expect(formatDay("2026-11-25", "ru")).toBe("25 нояб. 2026 г.");
  });
  it("names a month of a year", () => {
    expect(formatMonth("2026-12", "en")).toBe("December 2026");
    expect(formatMonth("2026-12", "ru")).toBe("декабрь 2026 г.");
  });
  it("dates a payment of today now, and of another day at its noon", () => {
    const now = new Date(2026, 10, 27, 8, 30);
    expect(momentOn("2026-11-27", now)).toBe(now.toISOString());
    expect(momentOn("2026-11-20", now)).toBe(new Date(2026, 10, 20, 12).toISOString());
  });
});

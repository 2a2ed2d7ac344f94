import { describe, expect, it } from "vitest";
import { clock, elapsedSeconds, hours } from "./time";

describe("elapsedSeconds", () => {
  const received = Date.UTC(2026, 10, 27, 9, 0, 0);
  it("is the server's count when the answer came", () => {
    expect(elapsedSeconds({ elapsed_seconds: 75 }, received, received)).toBe(75);
  });
  it("grows by the whole seconds since the answer", () => {
    expect(elapsedSeconds({ elapsed_seconds: 75 }, received, received + 999)).toBe(75);
    expect(elapsedSeconds({ elapsed_seconds: 75 }, received, received + 1000)).toBe(76);
    expect(elapsedSeconds({ elapsed_seconds: 75 }, received, received + 3_600_500)).toBe(3675);
  });
  it("never runs backwards when the browser's clock is behind the answer", () => {
    expect(elapsedSeconds({ elapsed_seconds: 75 }, received, received - 5000)).toBe(75);
  });
});

describe("clock", () => {
  it("writes hours, minutes and seconds", () => {
    expect(clock(0)).toBe("0:00:00");
    expect(clock(5)).toBe("0:00:05");
    expect(clock(245)).toBe("0:04:05");
    expect(clock(3600)).toBe("1:00:00");
    expect(clock(43_200)).toBe("12:00:00");
    expect(clock(90_061)).toBe("25:01:01");
  });
  it("drops fractions and never shows a negative time", () => {
    expect(clock(61.9)).toBe("0:01:01");
    expect(clock(-3)).toBe("0:00:00");
  });
});

describe("hours", () => {
  it("writes the API's decimal hours as the language writes numbers", () => {
    expect(hours("12.50", "en")).toBe("12.5");
    expect(hours("12.50", "ru")).toBe("12,5");
    expect(hours("0.00", "ru")).toBe("0");
  });
});

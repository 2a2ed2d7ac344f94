import { describe, expect, it } from "vitest";
import { deviceOf } from "./device";

describe("deviceOf", () => {
  it("reads a browser's User-Agent as its browser, major version and system", () => {
    const chromium = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.8078.73 Safari/537.36";
    expect(deviceOf(chromium)).toEqual({ browser: "Chrome 156", os: "Linux" });
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
    expect(deviceOf(firefox)).toEqual({ browser: "Firefox 140", os: "Windows" });
  });
  it("leaves a label that is no User-Agent to be shown as it is", () => {
    expect(deviceOf("AgencyHub Desktop on Ada's laptop")).toBeUndefined();
  });
});

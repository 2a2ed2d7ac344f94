import { describe, expect, it } from "vitest";
import { formatFileSize } from "./fileSize";

describe("file sizes", () => {
  it("says bytes below a kilobyte, never 0 kB", () => {
    expect(formatFileSize(17, "en")).toBe("17 bytes");
    expect(formatFileSize(1, "en")).toBe("1 byte");
    expect(formatFileSize(0, "en")).toBe("0 bytes");
  });
  it("takes the largest unit the size reaches, with one decimal", () => {
    expect(formatFileSize(1536, "en")).toBe("1.5 kB");
    expect(formatFileSize(5 * (1 << 20) + 104858, "en")).toBe("5.1 MB");
  });
  it("writes the person's language", () => {
    expect(formatFileSize(1536, "ru")).toBe("1,5 кБ");
    expect(formatFileSize(17, "ru")).toBe("17 байт");
  });
});

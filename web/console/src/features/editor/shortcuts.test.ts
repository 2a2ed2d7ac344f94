import { describe, expect, it } from "vitest";
import { commandOf, nudgeOf, type KeyPress } from "./shortcuts";

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe("editor shortcuts", () => {
  it("maps Ctrl and Cmd alike", () => {
    expect(commandOf(press("z", { ctrlKey: true }))).toBe("undo");
    expect(commandOf(press("z", { metaKey: true }))).toBe("undo");
    expect(commandOf(press("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(commandOf(press("y", { ctrlKey: true }))).toBe("redo");
    expect(commandOf(press("c", { metaKey: true }))).toBe("copy");
    expect(commandOf(press("v", { ctrlKey: true }))).toBe("paste");
    expect(commandOf(press("d", { ctrlKey: true }))).toBe("duplicate");
    expect(commandOf(press("s", { ctrlKey: true }))).toBe("save");
  });
  it("deletes with Delete or Backspace, and leaves plain letters alone", () => {
    expect(commandOf(press("Delete"))).toBe("delete");
    expect(commandOf(press("Backspace"))).toBe("delete");
    expect(commandOf(press("z"))).toBeUndefined();
    expect(commandOf(press("s", { ctrlKey: true, altKey: true }))).toBeUndefined();
  });
  it("moves by 10 px, by 50 with Shift", () => {
    expect(nudgeOf(press("ArrowRight"))).toEqual({ x: 10, y: 0 });
    expect(nudgeOf(press("ArrowUp", { shiftKey: true }))).toEqual({ x: 0, y: -50 });
    expect(nudgeOf(press("ArrowUp", { ctrlKey: true }))).toBeUndefined();
  });
});

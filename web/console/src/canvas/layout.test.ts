import { describe, expect, it } from "vitest";
import { NODE_HEIGHT, NODE_WIDTH } from "./graph";
import { clearOf } from "./layout";

describe("clearOf", () => {
  it("keeps a place no action covers", () => {
    expect(clearOf([{ x: 0, y: 0 }], { x: NODE_WIDTH + 40, y: 0 })).toEqual({ x: NODE_WIDTH + 40, y: 0 });
  });
  it("moves a place that overlaps an action's box, not only its corner, below it", () => {
    const spot = clearOf([{ x: 0, y: 0 }], { x: 100, y: 30 });
    expect(spot.x).toBe(100);
    expect(spot.y).toBeGreaterThanOrEqual(NODE_HEIGHT + 40);
  });
  it("goes on down past a column of actions", () => {
    const column = [0, 1, 2].map((i) => ({ x: 0, y: i * (NODE_HEIGHT + 40) }));
    expect(clearOf(column, { x: 10, y: 10 })).toEqual({ x: 10, y: 10 + 3 * (NODE_HEIGHT + 40) });
  });
});

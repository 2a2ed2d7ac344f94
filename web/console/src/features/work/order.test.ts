import { describe, expect, it } from "vitest";
import { arrange, byPosition, columnId, columnsOf, interimPosition, keyboardTarget, placeOf, samePlace, type Column } from "./order";

const board = (): Column[] => [
  { status: "to_do", ids: ["a", "b", "c"] },
  { status: "in_progress", ids: ["d"] },
  { status: "done", ids: [] },
];

describe("columnsOf", () => {
  it("puts each task in its status's column in rank order, byte by byte", () => {
    const tasks = [
      { task_id: "late", status: "to_do", position: "z" },
      { task_id: "first", status: "to_do", position: "i" },
      { task_id: "between", status: "to_do", position: "i5" },
      { task_id: "upper", status: "to_do", position: "T" },
      { task_id: "doing", status: "in_progress", position: "a" },
      { task_id: "lost", status: "archived", position: "a" },
    ];
    expect(columnsOf(["to_do", "in_progress", "done"], tasks)).toEqual([
      { status: "to_do", ids: ["upper", "first", "between", "late"] },
      { status: "in_progress", ids: ["doing"] },
      { status: "done", ids: [] },
    ]);
  });
});

describe("arrange", () => {
  it("moves a task down its column into the place of the task it is over", () => {
    expect(arrange(board(), "a", "c")[0].ids).toEqual(["b", "c", "a"]);
  });
  it("moves a task up its column into the place of the task it is over", () => {
    expect(arrange(board(), "c", "a")[0].ids).toEqual(["c", "a", "b"]);
  });
  it("puts a task over another column's task before that task", () => {
    const moved = arrange(board(), "b", "d");
    expect(moved[0].ids).toEqual(["a", "c"]);
    expect(moved[1].ids).toEqual(["b", "d"]);
  });
  it("puts a task over a column at that column's end", () => {
    expect(arrange(board(), "a", columnId("in_progress"))[1].ids).toEqual(["d", "a"]);
    expect(arrange(board(), "a", columnId("to_do"))[0].ids).toEqual(["b", "c", "a"]);
    expect(arrange(board(), "a", columnId("done"))[2].ids).toEqual(["a"]);
  });
  it("leaves the board as it is over nothing, over itself or over an unknown column", () => {
    const columns = board();
    expect(arrange(columns, "a", undefined)).toBe(columns);
    expect(arrange(columns, "a", "a")).toBe(columns);
    expect(arrange(columns, "a", columnId("archived"))).toBe(columns);
  });
  it("does not change the board it was given", () => {
    const columns = board();
    arrange(columns, "a", "d");
    expect(columns).toEqual(board());
  });
});

describe("placeOf", () => {
  it("places a task right after the one above it", () => {
    expect(placeOf(board(), "c")).toEqual({ status: "to_do", after_task_id: "b" });
  });
  it("places the first of several right before the next", () => {
    expect(placeOf(board(), "a")).toEqual({ status: "to_do", before_task_id: "b" });
  });
  it("places a task alone in its column by the column only", () => {
    expect(placeOf(board(), "d")).toEqual({ status: "in_progress" });
  });
  it("knows no place of a task not on the board", () => {
    expect(placeOf(board(), "x")).toBeUndefined();
  });
  it("is where a drop leaves the task", () => {
    expect(placeOf(arrange(board(), "c", "d"), "c")).toEqual({ status: "in_progress", before_task_id: "d" });
  });
});

describe("samePlace", () => {
  it("tells a drop that moved nothing from one that did", () => {
    expect(samePlace(board(), arrange(board(), "a", "a"), "a")).toBe(true);
    expect(samePlace(board(), arrange(board(), "a", "b"), "a")).toBe(false);
    expect(samePlace(board(), arrange(board(), "d", columnId("in_progress")), "d")).toBe(true);
  });
});

describe("interimPosition", () => {
  const ranks = ["0", "i", "i0", "i00001", "i5", "iz", "j", "zzzz"];
  it("sorts right after the previous rank and before every rank after it", () => {
    for (const [n, previous] of ranks.entries()) {
      const interim = interimPosition(previous);
      expect(byPosition({ position: previous }, { position: interim })).toBe(-1);
      for (const next of ranks.slice(n + 1)) expect(byPosition({ position: interim }, { position: next })).toBe(-1);
    }
  });
  it("sorts first without a previous task", () => {
    for (const rank of ranks) expect(byPosition({ position: interimPosition(undefined) }, { position: rank })).toBe(-1);
  });
});

describe("keyboardTarget", () => {
  it("moves one place down and up a column, as arrange then shows it", () => {
    const columns = board();
    const down = keyboardTarget(columns, "a", undefined, "down");
    expect(down).toBe("b");
    expect(arrange(columns, "a", down)[0].ids).toEqual(["b", "a", "c"]);
    const further = keyboardTarget(columns, "a", down, "down");
    expect(arrange(columns, "a", further)[0].ids).toEqual(["b", "c", "a"]);
    const back = keyboardTarget(columns, "a", further, "up");
    expect(arrange(columns, "a", back)[0].ids).toEqual(["b", "a", "c"]);
    const home = keyboardTarget(columns, "a", back, "up");
    expect(arrange(columns, "a", home)[0].ids).toEqual(["a", "b", "c"]);
  });
  it("goes no further than a column's ends", () => {
    expect(keyboardTarget(board(), "a", undefined, "up")).toBeUndefined();
    expect(keyboardTarget(board(), "c", undefined, "down")).toBeUndefined();
    expect(keyboardTarget(board(), "a", "c", "down")).toBeUndefined();
  });
  it("moves to the same place in the next column, or its end when it is shorter", () => {
    expect(keyboardTarget(board(), "a", undefined, "right")).toBe("d");
    expect(keyboardTarget(board(), "c", undefined, "right")).toBe(columnId("in_progress"));
    expect(keyboardTarget(board(), "d", undefined, "right")).toBe(columnId("done"));
    expect(keyboardTarget(board(), "d", undefined, "left")).toBe("a");
  });
  it("goes no further than the first and last columns", () => {
    expect(keyboardTarget(board(), "a", undefined, "left")).toBeUndefined();
    const inDone = arrange(board(), "d", columnId("done"));
    expect(keyboardTarget(inDone, "d", "d", "right")).toBeUndefined();
  });
  it("moves within the column a task was carried into", () => {
    const carried = arrange(board(), "b", "d"); // in_progress: b, d
    const down = keyboardTarget(carried, "b", "b", "down");
    expect(arrange(carried, "b", down)[1].ids).toEqual(["d", "b"]);
    expect(keyboardTarget(carried, "b", down, "down")).toBeUndefined();
  });
});

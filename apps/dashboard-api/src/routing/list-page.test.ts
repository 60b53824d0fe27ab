import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, toListPage } from "./list-page.js";

describe("list pages", () => {
  it("round-trips cursors and rejects garbage", () => {
    const cursor = { at: new Date("2025-01-01T00:00:00.123Z"), id: "abc" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(() => decodeCursor("not-a-cursor")).toThrow(/cursor/);
  });
  it("cuts limit + 1 rows into a page with has_more and the next cursor", () => {
    const rows = [1, 2, 3].map((index) => ({ id: `r${index}`, at: new Date(Date.UTC(2025, 0, index)) }));
    const page = toListPage(rows, 2, "at", (row) => row.id);
    expect(page).toEqual({ object: "list", data: ["r1", "r2"], has_more: true, next_cursor: encodeCursor({ at: rows[1]!.at, id: "r2" }) });
    expect(toListPage(rows.slice(0, 2), 2, "at", (row) => row.id)).toMatchObject({ has_more: false, next_cursor: null });
  });
});

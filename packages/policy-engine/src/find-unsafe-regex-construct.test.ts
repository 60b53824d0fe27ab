import { describe, expect, it } from "vitest";
import { findUnsafeRegexConstruct } from "./find-unsafe-regex-construct.js";

describe("findUnsafeRegexConstruct", () => {
  it.each([
    ["(a+)+$", "nested quantifiers"],
    ["(a*)*b", "nested quantifiers"],
    ["(?:\\w+\\s?)*$", "nested quantifiers"],
    ["((ab)+c)+", "nested quantifiers"],
    ["(x{2,})+", "nested quantifiers"],
    ["(?<word>[a-z]+)+", "nested quantifiers"],
    ["(a|aa)+$", "alternation"],
    ["(?:foo|bar)*", "alternation"],
    ["(a)\\1", "backreference"],
    ["(?<x>a)\\k<x>", "backreference"],
    ["(a", "unbalanced"],
    ["+a", "quantifier without a target"],
  ])("rejects %s", (pattern, reason) => {
    expect(findUnsafeRegexConstruct(pattern)).toContain(reason);
  });

  it.each([
    "TICKET-[0-9]{4,8}",
    "\\b(?:foo|bar)\\b",
    "(ab)?c+",
    "(?:a+b)?",
    "[(+*)]+",
    "\\(+\\)+",
    "(?:ab){1}x*",
    "(?=a+)b",
    "^\\d{3}-\\d{2}$",
  ])("accepts %s", (pattern) => {
    expect(findUnsafeRegexConstruct(pattern)).toBeNull();
  });
});

import { describe } from "vitest";
import { createMemoryStore } from "../src/index.js";
import { defineAdmissionContract } from "./admission-contract.js";

describe("admission controller on the memory store", () => {
  defineAdmissionContract(async (clock) => {
    const store = createMemoryStore({ clock });
    return { first: store, second: store, close: () => store.close() };
  });
});

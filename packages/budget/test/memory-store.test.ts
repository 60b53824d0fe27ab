import { describe } from "vitest";
import { createMemoryStore } from "../src/index.js";
import { defineAdmissionContract } from "./admission-contract.js";
import { defineSeedingContract } from "./seeding-contract.js";

describe("admission controller on the memory store", () => {
  defineAdmissionContract(async (clock) => {
    const store = createMemoryStore({ clock });
    return { first: store, second: store, close: () => store.close() };
  });
  defineSeedingContract(async (clock) => {
    const store = createMemoryStore({ clock });
    // A restarted process: every counter is gone (close() empties the store, which stays usable).
    return { first: store, second: store, loseCounters: () => store.close(), close: () => store.close() };
  });
});

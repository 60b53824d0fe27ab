// Hostile request generators (fast-check) shared by the fuzz test files of the gateway and the
// dashboard and by `pnpm fuzz`: near-valid mutations of valid bodies, arbitrary JSON and text,
// header and key shapes, and the checks every answer must pass whatever it was sent.
import fc from "fast-check";

/** Property names every plain object inherits (or that change its prototype when assigned). */
export const inheritedNames = [
  "__proto__",
  "constructor",
  "prototype",
  "valueOf",
  "toString",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
];

/** Numbers outside the domain of most fields: beyond 2^53, negative, fractional, tiny, huge. */
export const hostileNumbers = [
  -1,
  -0,
  0,
  0.5,
  1.5,
  -2.5,
  1e-300,
  2 ** 31,
  2 ** 32 + 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  1e21,
  -1e21,
  1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];

/** Strings that break naive code: lone surrogates, NUL, escapes, paths, template and format markers. */
export const hostileStrings = [
  "",
  " ",
  "\ud800",
  "a\udfffb",
  "\udc00\ud800",
  "\u0000",
  "\u0000@x.com",
  "\ud800@x.com",
  "%",
  "%E0%A4%A",
  "%00",
  "../../etc/passwd",
  "${jndi:ldap://x}",
  "{{constructor.constructor('return 1')()}}",
  "%s%s%s%n",
  "NaN",
  "Infinity",
  "-0",
  "1e400",
  "null",
  "__proto__",
  "not a url",
  "http://",
  "http://[::1",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "\u202e\u200b\ufeff",
  "a".repeat(256),
];

const placeholderPrefix = "@@fuzz-raw-";

/**
 * A value that is written into the JSON text verbatim (deep nesting, `1e400`, `-0`): JSON
 * cannot carry these through `JSON.stringify`, so {@link toBodyText} splices them in.
 */
export class RawJson {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
  }
}

/** JSON text nested `depth` deep (arrays or objects). */
export function deepJson(depth, kind = "array") {
  return kind === "array" ? new RawJson(`${"[".repeat(depth)}${"]".repeat(depth)}`) : new RawJson(`${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`);
}

/** Serializes a generated body, splicing {@link RawJson} values in. */
export function toBodyText(value) {
  const raws = [];
  const text = JSON.stringify(value, (_key, current) => {
    if (current instanceof RawJson) {
      raws.push(current.text);
      return `${placeholderPrefix}${raws.length - 1}@@`;
    }
    return current;
  });
  if (text === undefined) return "";
  if (raws.length === 0) return text;
  return text.replace(/"@@fuzz-raw-(\d+)@@"/g, (_match, index) => raws[Number(index)]);
}

/** Sets an own property, even one named `__proto__` (an assignment would change the prototype). */
function defineOwn(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy (generated constants are shared between runs and must never be changed in place). */
function copyOf(value) {
  if (value === null || typeof value !== "object" || value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(copyOf);
  const copy = {};
  for (const [key, item] of Object.entries(value)) defineOwn(copy, key, copyOf(item));
  return copy;
}

/** Every object and array inside `value` (the root included), with the keys found in objects. */
function containersOf(value, found = { containers: [], keys: new Set() }, depth = 0) {
  if (value === null || typeof value !== "object" || value instanceof RawJson || depth > 12) return found;
  found.containers.push(value);
  if (Array.isArray(value)) for (const item of value) containersOf(item, found, depth + 1);
  else
    for (const [key, item] of Object.entries(value)) {
      found.keys.add(key);
      containersOf(item, found, depth + 1);
    }
  return found;
}

/**
 * Options of the generators. `hugeLength`: length of the huge strings; `deepDepths`: the
 * nesting depths of deep values (the CI-bounded tests keep both small enough to stay fast).
 */
const defaults = { hugeLength: 64 * 1024, deepDepths: [1000, 10_000, 100_000] };

/** A leaf or small value that no field expects. */
export function hostileValue(options = {}) {
  const { hugeLength, deepDepths } = { ...defaults, ...options };
  return fc.oneof(
    { arbitrary: fc.constantFrom(...hostileNumbers), weight: 4 },
    { arbitrary: fc.constantFrom(...hostileStrings), weight: 4 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
    { arbitrary: fc.constantFrom(null, true, false, [], {}, [[]], [null], { "": null }, ["\ud800"]), weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
    { arbitrary: fc.constantFrom(new RawJson("1e400"), new RawJson("-1e400"), new RawJson("-0"), new RawJson("123456789012345678901234567890")), weight: 1 },
    {
      arbitrary: fc.constantFrom(...inheritedNames).map((name) => {
        const object = {};
        defineOwn(object, name, {});
        return object;
      }),
      weight: 1,
    },
    { arbitrary: fc.constant("x".repeat(hugeLength)), weight: 1 },
    { arbitrary: fc.constantFrom(...deepDepths).chain((depth) => fc.constantFrom(deepJson(depth, "array"), deepJson(depth, "object"))), weight: 1 },
  );
}

/** One change to a valid body: replace, add (inherited names first), delete or wrap a field. */
function mutationArbitrary(options) {
  const { focus } = options;
  const anyKey = fc.oneof(
    { arbitrary: fc.constantFrom(...inheritedNames), weight: 3 },
    { arbitrary: fc.nat(), weight: 3 }, // an existing key, by index
    { arbitrary: fc.string({ unit: "binary", maxLength: 12 }), weight: 1 },
  );
  if (focus === "inherited") {
    const value = fc.constantFrom({}, [], null, 1, "x", true);
    return fc.record({ kind: fc.constant("add"), target: fc.nat(), key: fc.constantFrom(...inheritedNames), value });
  }
  if (focus === "numbers") {
    const value = fc.oneof(fc.constantFrom(...hostileNumbers), fc.constantFrom(new RawJson("1e400"), new RawJson("123456789012345678901234567890")));
    return fc.record({ kind: fc.constant("replaceNumber"), target: fc.nat(), key: fc.nat(), value });
  }
  if (focus === "surrogates") {
    const value = fc.constantFrom("\ud800", "a\udfffb", "\udc00\ud800", "\ud800@x.com", "x\ud83d");
    return fc.record({ kind: fc.constant("replaceString"), target: fc.nat(), key: fc.nat(), value });
  }
  if (focus === "deep") {
    const { deepDepths } = { ...defaults, ...options };
    const value = fc.constantFrom(...deepDepths).chain((depth) => fc.constantFrom(deepJson(depth, "array"), deepJson(depth, "object")));
    return fc.record({ kind: fc.constantFrom("replace", "add"), target: fc.nat(), key: fc.nat(), value });
  }
  return fc.record({ kind: fc.constantFrom("replace", "replace", "add", "add", "delete", "wrap"), target: fc.nat(), key: anyKey, value: hostileValue(options) });
}

/**
 * Bodies of one class only: valid bodies with one or two changes that all add inherited
 * property names (`inherited`), put out-of-domain numbers where values were (`numbers`), or
 * nest values deeply (`deep`), or put lone UTF-16 surrogates where strings were (`surrogates`).
 * The classes issue 12 names, so that a few runs find them.
 */
export function focusedBody(valid, focus, options = {}) {
  const bodies = Array.isArray(valid) ? valid : [valid];
  return fc
    .tuple(fc.constantFrom(...bodies), fc.array(mutationArbitrary({ ...options, focus }), { minLength: 1, maxLength: 2 }))
    .map(([body, mutations]) => toBodyText(mutations.reduce((current, mutation) => applyMutation(current, mutation), copyOf(body))));
}

function applyMutation(body, generated) {
  const mutation = { ...generated, value: copyOf(generated.value) };
  const { containers, keys } = containersOf(body);
  if (containers.length === 0) return mutation.value;
  const container = containers[mutation.target % containers.length];
  const ownKeys = Array.isArray(container) ? container.map((_item, index) => index) : Object.keys(container);
  const knownKeys = [...keys];
  const pickExisting = () => (ownKeys.length === 0 ? undefined : ownKeys[(typeof mutation.key === "number" ? mutation.key : 0) % ownKeys.length]);
  switch (mutation.kind) {
    case "replaceString": {
      // A field that holds a string in the valid body (a name, an e-mail, a URL), else any field.
      const textual = containers.flatMap((candidate) =>
        Array.isArray(candidate) ? [] : Object.keys(candidate).filter((key) => typeof candidate[key] === "string").map((key) => [candidate, key]),
      );
      if (textual.length === 0) return applyMutation(body, { ...mutation, kind: "replace" });
      const [holder, key] = textual[mutation.key % textual.length];
      defineOwn(holder, key, mutation.value);
      return body;
    }
    case "replaceNumber": {
      // A field that holds a number in the valid body (max_tokens, temperature...), else any field.
      const numeric = containers.flatMap((candidate) =>
        Array.isArray(candidate) ? [] : Object.keys(candidate).filter((key) => typeof candidate[key] === "number").map((key) => [candidate, key]),
      );
      if (numeric.length === 0) return applyMutation(body, { ...mutation, kind: "replace" });
      const [holder, key] = numeric[mutation.key % numeric.length];
      defineOwn(holder, key, mutation.value);
      return body;
    }
    case "replace":
    case "wrap": {
      const key = pickExisting();
      if (key === undefined) return body;
      if (mutation.kind === "wrap") container[key] = [container[key], copyOf(container[key])];
      else if (Array.isArray(container)) container[key] = mutation.value;
      else defineOwn(container, key, mutation.value);
      return body;
    }
    case "add": {
      if (Array.isArray(container)) {
        container.push(mutation.value);
        return body;
      }
      const key = typeof mutation.key === "number" ? (knownKeys[mutation.key % Math.max(knownKeys.length, 1)] ?? "extra") : mutation.key;
      defineOwn(container, key, mutation.value);
      return body;
    }
    case "delete": {
      const key = pickExisting();
      if (key === undefined) return body;
      if (Array.isArray(container)) container.splice(key, 1);
      else delete container[key];
      return body;
    }
    default:
      return body;
  }
}

/**
 * A request body (its text): a valid body with one to three mutations, or arbitrary JSON,
 * arbitrary text, truncated or empty JSON. `valid` is one or more valid bodies of the route.
 */
export function hostileBody(valid, options = {}) {
  const bodies = Array.isArray(valid) ? valid : [valid];
  const mutated = fc
    .tuple(fc.constantFrom(...bodies), fc.array(mutationArbitrary(options), { minLength: 1, maxLength: 3 }))
    .map(([body, mutations]) => toBodyText(mutations.reduce((current, mutation) => applyMutation(current, mutation), copyOf(body))));
  return fc.oneof(
    { arbitrary: mutated, weight: 12 },
    { arbitrary: fc.constantFrom(...bodies).map((body) => toBodyText(body)), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => toBodyText(value)), weight: 2 },
    { arbitrary: hostileValue(options).map((value) => toBodyText(value)), weight: 1 },
    {
      arbitrary: fc.oneof(
        fc.string({ unit: "binary", maxLength: 60 }),
        fc.constantFrom("", "{", "[", '{"model":', "nul", "\u0000", "{}garbage", '{"a":1}{"a":2}', "\ufeff{}"),
        fc.tuple(fc.constantFrom(...bodies), fc.nat()).map(([body, cut]) => {
          const text = toBodyText(body);
          return text.slice(0, cut % Math.max(text.length, 1));
        }),
      ),
      weight: 2,
    },
  );
}

/** Content types a client might send, from correct to absurd; `undefined`: no header. */
export const contentTypes = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "",
  ";;;",
  undefined,
];

/** A printable header value (what an HTTP client can send). */
export const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 });

/**
 * `Authorization` shapes around a valid secret: correct, wrong scheme, truncated, doubled,
 * padded, another prefix, or none (`undefined`).
 */
export function authorizationShapes(secret) {
  return fc.oneof(
    { arbitrary: fc.constant(`Bearer ${secret}`), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        "",
        "Bearer",
        "Bearer ",
        `bearer ${secret}`,
        `Basic ${Buffer.from(`user:${secret}`).toString("base64")}`,
        `Bearer ${secret}x`,
        `Bearer ${secret.slice(0, -1)}`,
        `Bearer ${secret} ${secret}`,
        `Bearer  ${secret}`,
        `Bearer ${secret.toUpperCase()}`,
        "Bearer gak_",
        "Bearer sk-not-a-gateway-key",
        `Bearer ${"a".repeat(4096)}`,
      ),
      weight: 3,
    },
    { arbitrary: headerText, weight: 1 },
  );
}

/** Headers besides `Authorization` and `Content-Type`: ids, client labels, sessions, provider choice. */
export const extraHeaders = fc.record(
  {
    "x-request-id": fc.oneof(headerText, fc.constant("r".repeat(300))),
    "x-gateway-client": headerText,
    "x-gateway-session": headerText,
    "x-gateway-session-id": headerText,
    "x-provider": fc.oneof(headerText, fc.constantFrom(...inheritedNames)),
    "anthropic-version": fc.oneof(headerText, fc.constant("2023-06-01")),
    "anthropic-beta": headerText,
    accept: fc.constantFrom("application/json", "text/event-stream", "*/*", "application/json, text/event-stream", "text/html"),
    "mcp-session-id": headerText,
    "mcp-protocol-version": fc.constantFrom("2025-06-18", "2025-03-26", "1999-01-01", "", "__proto__"),
  },
  { requiredKeys: [] },
);

/** A path segment (an id) in the shapes a hostile client sends, URL-encoded or raw. */
export const hostileSegment = fc.oneof(
  fc.constantFrom("missing0000000000000000000", "0", "-1", "1e400", "__proto__", "constructor", "toString", "%", "%E0%A4%A", "%00", "%2F..%2F", "..", "a".repeat(2000), "%F0%9F%98", "%ud800"),
  fc.string({ unit: "binary", maxLength: 20 }).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, "x"))),
);

/**
 * What is wrong with an answer (empty when nothing): a 5xx, no `x-request-id`, an error that is
 * not the documented body (`gateway`: `{"error":{"message"}}`, also Anthropic's shape;
 * `dashboard`: `{"error":{"code","message","details"}}`), or a secret in the body or headers.
 */
export function answerProblems(answer, { errorBody, secrets = [], upstreamFailures = false }) {
  const problems = [];
  // An operation that reaches out by design (a connection, destination or channel test, an OAuth
  // start) may report the other side's failure as 502/504 in the documented error body.
  const reportedUpstreamFailure = upstreamFailures && (answer.status === 502 || answer.status === 504);
  if (answer.status >= 500 && !reportedUpstreamFailure) problems.push(`status ${answer.status}`);
  const requestId = answer.headers.get("x-request-id");
  if (requestId === null || requestId === "") problems.push("no x-request-id");
  if (answer.status >= 400 && (answer.status < 500 || reportedUpstreamFailure)) {
    let parsed = null;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      problems.push(`error body is not JSON: ${JSON.stringify(answer.text.slice(0, 120))}`);
    }
    if (parsed !== null) {
      const error = parsed?.error;
      const fine =
        errorBody === "dashboard"
          ? typeof error?.code === "string" && typeof error?.message === "string" && error.details !== null && typeof error.details === "object"
          : typeof error?.message === "string";
      if (!fine) problems.push(`not the documented ${errorBody} error body: ${answer.text.slice(0, 200)}`);
    }
  }
  const headerText = [...answer.headers.entries()].filter(([name]) => name !== "set-cookie").map(([name, value]) => `${name}: ${value}`).join("\n");
  for (const secret of secrets) {
    if (answer.text.includes(secret) || headerText.includes(secret)) problems.push(`a secret reached the answer (${secret.slice(0, 6)}...)`);
  }
  return problems;
}

/**
 * Runs a fast-check property and, when it fails, throws only what the property reported (the
 * request and why its answer broke the rules) and how to replay it, not the generated values
 * (a body nested 50,000 deep would fill the log).
 */
export async function assertProperty(property, parameters) {
  const details = await fc.check(property, parameters);
  if (!details.failed) return;
  const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`${reason}\n(after ${details.numRuns} runs; replay with seed ${details.seed}, path "${details.counterexamplePath}")`);
}

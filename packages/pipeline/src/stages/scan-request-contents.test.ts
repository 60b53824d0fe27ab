import { describe, expect, it } from "vitest";
import { scanRequestContents } from "./scan-request-contents.js";

const png1024 = (() => {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
  header.writeUInt32BE(13, 8);
  header.write("IHDR", 12, "ascii");
  header.writeUInt32BE(1024, 16);
  header.writeUInt32BE(512, 20);
  return header.toString("base64");
})();

describe("scanRequestContents", () => {
  it("finds images wherever the formats put them, nested tool results included, and reads base64 sizes", () => {
    const messages = scanRequestContents({
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: png1024 } }] },
            { type: "image", source: { type: "url", url: "http://127.0.0.1:9/a.png" } },
          ],
        },
      ],
    });
    expect(messages.images).toEqual([
      { size: null, detail: null },
      { size: { width: 1024, height: 512 }, detail: null },
    ]);
    const responses = scanRequestContents({
      model: "m",
      input: [{ role: "user", content: [{ type: "input_image", image_url: `data:image/png;base64,${png1024}`, detail: "low" }, { type: "input_image", file_id: "file_1" }] }],
    });
    expect(responses.images).toEqual([
      { size: null, detail: null },
      { size: { width: 1024, height: 512 }, detail: "low" },
    ]);
  });

  it("does not count media payloads as text, bounds audio by its size, and counts text in UTF-8 bytes", () => {
    const audio = Buffer.alloc(20_000).toString("base64");
    const scanned = scanRequestContents({ messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: audio, format: "wav" } }, { type: "text", text: "漢🙂" }] }] });
    // 20,000 bytes are 26,668 base64 characters, counted as 20,001 bytes: 1,001 tokens.
    expect(scanned.audioTokens).toBe(1001);
    // 16 framing + keys (messages, role, content, type, text) + "user", "text", 3 + 4 bytes + 16 for the audio part.
    expect(scanned.textTokens).toBe(16 + 8 + 4 + 7 + 4 + 4 + 4 + 4 + 7 + 16);
  });

  it("marks files, stored conversations and provider-run tools, and adds the tool prompts", () => {
    expect(scanRequestContents({ input: [{ type: "input_file", file_url: "http://127.0.0.1:9/a.pdf" }] }).unboundedInput).toContain("input_file");
    expect(scanRequestContents({ messages: [{ role: "user", content: [{ type: "document", source: { type: "text", data: "plain" } }] }] }).unboundedInput).toBeNull();
    expect(scanRequestContents({ conversation: "conv_1", input: "hi" }).unboundedInput).toContain("conversation");
    expect(scanRequestContents({ tools: [{ type: "web_search_preview" }] }).unboundedCall).toContain("web_search_preview");
    expect(scanRequestContents({ mcp_servers: [{ type: "url", url: "http://127.0.0.1:9", name: "x" }] }).unboundedCall).toContain("mcp_servers");
    const client = scanRequestContents({ tools: [{ type: "function", function: { name: "f" } }, { type: "computer_20250124", name: "computer" }], response_format: { type: "json_object" } });
    expect(client.unboundedCall).toBeNull();
    expect(client.promptOverheadTokens).toBe(3000);
    // A JSON schema property typed "image" or "file" is text, not a media part.
    const schema = scanRequestContents({ tools: [{ type: "function", function: { name: "f", parameters: { properties: { a: { type: "file" }, b: { type: "image" } } } } }] });
    expect(schema.unboundedInput).toBeNull();
    expect(schema.images).toEqual([]);
  });

  it("counts a predicted output's bytes as output", () => {
    expect(scanRequestContents({ prediction: { type: "content", content: "漢字" } }).predictionTokens).toBe(4 + 7 + 7 + 6);
  });

  it("walks a deeply nested body without recursion", () => {
    let nested: unknown = "leaf";
    for (let depth = 0; depth < 100_000; depth += 1) nested = [nested];
    expect(scanRequestContents({ messages: nested }).textTokens).toBeGreaterThan(16);
    expect(scanRequestContents({ prediction: nested }).predictionTokens).toBe(4);
  });
});

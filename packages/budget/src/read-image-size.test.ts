import { describe, expect, it } from "vitest";
import { readImageSize } from "./read-image-size.js";

const uint32be = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
const uint16le = (value: number) => [value & 0xff, (value >>> 8) & 0xff];
const uint24le = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));
const base64 = (bytes: number[]) => Buffer.from(bytes).toString("base64");

/** A PNG's signature and IHDR chunk, then a body the reader must not need. */
export function pngHeader(width: number, height: number): number[] {
  return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...uint32be(13), ...ascii("IHDR"), ...uint32be(width), ...uint32be(height), 8, 6, 0, 0, 0, 0, 0, 0, 0];
}

function jpegHeader(width: number, height: number, paddingSegments: number): number[] {
  const bytes = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  // EXIF-like APP1 segments of 300 bytes each come before the frame header.
  for (let index = 0; index < paddingSegments; index += 1) bytes.push(0xff, 0xe1, 0x01, 0x2c, ...new Array<number>(298).fill(0x41));
  bytes.push(0xff, 0xff, 0xc2, 0x00, 0x11, 8, (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1);
  return bytes;
}

describe("readImageSize", () => {
  it("reads PNG, GIF, JPEG and the three WebP headers", () => {
    expect(readImageSize(base64(pngHeader(1024, 768)))).toEqual({ width: 1024, height: 768 });
    expect(readImageSize(base64([...ascii("GIF89a"), ...uint16le(640), ...uint16le(480), 0, 0, 0]))).toEqual({ width: 640, height: 480 });
    expect(readImageSize(base64(jpegHeader(4032, 3024, 3)))).toEqual({ width: 4032, height: 3024 });
    const riff = (chunk: string, payload: number[]) => base64([...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBP"), ...ascii(chunk), 0, 0, 0, 0, ...payload]);
    expect(readImageSize(riff("VP8X", [0, 0, 0, 0, ...uint24le(1999), ...uint24le(999)]))).toEqual({ width: 2000, height: 1000 });
    const lossless = (799 & 0x3fff) | ((599 & 0x3fff) << 14);
    expect(readImageSize(riff("VP8L", [0x2f, lossless & 0xff, (lossless >>> 8) & 0xff, (lossless >>> 16) & 0xff, (lossless >>> 24) & 0xff]))).toEqual({ width: 800, height: 600 });
    expect(readImageSize(riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...uint16le(320), ...uint16le(240)]))).toEqual({ width: 320, height: 240 });
  });

  it("reads from an offset (a data URL's payload) without copying it", () => {
    const url = `data:image/png;base64,${base64(pngHeader(3000, 2000))}`;
    expect(readImageSize(url, url.indexOf(",") + 1)).toEqual({ width: 3000, height: 2000 });
  });

  it("answers null for what it cannot read, so the image counts at its model's maximum", () => {
    expect(readImageSize("")).toBeNull();
    expect(readImageSize("not base64 at all!")).toBeNull();
    expect(readImageSize(base64(pngHeader(1024, 768)).slice(0, 20))).toBeNull();
    expect(readImageSize(base64(pngHeader(0, 768)))).toBeNull();
    expect(readImageSize(base64(ascii("%PDF-1.7 something")))).toBeNull();
    // A frame header beyond 64 segments is not searched for.
    expect(readImageSize(base64(jpegHeader(100, 100, 80)))).toBeNull();
  });
});

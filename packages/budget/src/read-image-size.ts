/** An image's size in pixels, as its file header states it. */
export interface ImageSize {
  width: number;
  height: number;
}

/** JPEG segments read before giving up on finding the frame header (EXIF, ICC and the like come first). */
const maxJpegSegments = 64;

const base64Values = new Int8Array(128).fill(-1);
for (let index = 0; index < 64; index += 1) {
  base64Values["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(index)] = index;
}
// The URL-safe alphabet decodes the same way.
base64Values[45] = 62;
base64Values[95] = 63;

/**
 * The byte at `position` of the bytes a base64 string (from `start`) encodes, or -1 past its end or
 * on a character outside base64. Decodes only the 4 characters that hold it: reading a header costs
 * a few dozen characters, never the whole image.
 */
function byteAt(base64: string, start: number, position: number): number {
  const group = start + Math.floor(position / 3) * 4;
  const within = position % 3;
  const first = charValue(base64, group + within);
  const second = charValue(base64, group + within + 1);
  if (first < 0 || second < 0) return -1;
  if (within === 0) return ((first << 2) | (second >> 4)) & 0xff;
  if (within === 1) return ((first << 4) | (second >> 2)) & 0xff;
  return ((first << 6) | second) & 0xff;
}

function charValue(text: string, index: number): number {
  if (index >= text.length) return -1;
  const code = text.charCodeAt(index);
  return code < 128 ? base64Values[code]! : -1;
}

function uint16be(base64: string, start: number, position: number): number {
  return (byteAt(base64, start, position) << 8) | byteAt(base64, start, position + 1);
}

function uint16le(base64: string, start: number, position: number): number {
  return byteAt(base64, start, position) | (byteAt(base64, start, position + 1) << 8);
}

function uint24le(base64: string, start: number, position: number): number {
  return uint16le(base64, start, position) | (byteAt(base64, start, position + 2) << 16);
}

function uint32be(base64: string, start: number, position: number): number {
  return uint16be(base64, start, position) * 65_536 + uint16be(base64, start, position + 2);
}

function sized(width: number, height: number): ImageSize | null {
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * The width and height a PNG, GIF, WebP or JPEG file states in its header, read from its base64
 * text (from character `start`, e.g. just after a data URL's comma) without decoding the file:
 * PNG's IHDR, GIF's logical screen, WebP's VP8 / VP8L / VP8X chunk, JPEG's first SOF segment
 * (reached by hopping over at most 64 segments). Null when the header is none of these, is cut
 * short or states a zero size: the caller then counts the image at its model's maximum.
 *
 * @example readImageSize(pngBase64) // { width: 1024, height: 768 }
 */
export function readImageSize(base64: string, start = 0): ImageSize | null {
  const first = byteAt(base64, start, 0);
  if (first < 0) return null;

  // PNG: 89 50 4E 47 0D 0A 1A 0A, then the IHDR chunk: width and height (big-endian) at 16 and 20.
  if (first === 0x89 && byteAt(base64, start, 1) === 0x50 && byteAt(base64, start, 2) === 0x4e && byteAt(base64, start, 3) === 0x47) {
    if (byteAt(base64, start, 23) < 0) return null;
    return sized(uint32be(base64, start, 16), uint32be(base64, start, 20));
  }
  // GIF: "GIF8", then the logical screen's width and height (little-endian) at 6 and 8.
  if (first === 0x47 && byteAt(base64, start, 1) === 0x49 && byteAt(base64, start, 2) === 0x46 && byteAt(base64, start, 3) === 0x38) {
    if (byteAt(base64, start, 9) < 0) return null;
    return sized(uint16le(base64, start, 6), uint16le(base64, start, 8));
  }
  // WebP: "RIFF" <size> "WEBP", then a VP8 / VP8L / VP8X chunk.
  if (first === 0x52 && byteAt(base64, start, 1) === 0x49 && byteAt(base64, start, 2) === 0x46 && byteAt(base64, start, 3) === 0x46 && byteAt(base64, start, 8) === 0x57 && byteAt(base64, start, 9) === 0x45 && byteAt(base64, start, 10) === 0x42 && byteAt(base64, start, 11) === 0x50) {
    const chunk = String.fromCharCode(byteAt(base64, start, 12), byteAt(base64, start, 13), byteAt(base64, start, 14), byteAt(base64, start, 15));
    if (chunk === "VP8X") {
      if (byteAt(base64, start, 29) < 0) return null;
      return sized(uint24le(base64, start, 24) + 1, uint24le(base64, start, 27) + 1);
    }
    if (chunk === "VP8L") {
      if (byteAt(base64, start, 24) < 0 || byteAt(base64, start, 20) !== 0x2f) return null;
      const bits = uint24le(base64, start, 21) + byteAt(base64, start, 24) * 16_777_216;
      return sized((bits & 0x3fff) + 1, (Math.floor(bits / 16_384) & 0x3fff) + 1);
    }
    if (chunk === "VP8 ") {
      if (byteAt(base64, start, 29) < 0) return null;
      return sized(uint16le(base64, start, 26) & 0x3fff, uint16le(base64, start, 28) & 0x3fff);
    }
    return null;
  }
  // JPEG: FF D8, then segments (FF <marker> <length>) up to a start-of-frame marker.
  if (first === 0xff && byteAt(base64, start, 1) === 0xd8) {
    let position = 2;
    for (let segment = 0; segment < maxJpegSegments; segment += 1) {
      if (byteAt(base64, start, position) !== 0xff) return null;
      let marker = byteAt(base64, start, position + 1);
      // Fill bytes before a marker: a few are normal; many are no header worth reading on.
      for (let fill = 0; marker === 0xff; fill += 1) {
        if (fill === maxJpegSegments) return null;
        position += 1;
        marker = byteAt(base64, start, position + 1);
      }
      if (marker < 0) return null;
      // Markers without a length: TEM and the restart markers.
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        position += 2;
        continue;
      }
      const length = uint16be(base64, start, position + 2);
      if (length < 2 || byteAt(base64, start, position + 3) < 0) return null;
      // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, then height and width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (byteAt(base64, start, position + 8) < 0) return null;
        return sized(uint16be(base64, start, position + 7), uint16be(base64, start, position + 5));
      }
      if (marker === 0xd9 || marker === 0xda) return null;
      position += 2 + length;
    }
    return null;
  }
  return null;
}

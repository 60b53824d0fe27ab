/** The encodings the web app's build writes beside its files, in order of preference. */
export type PrecompressedEncoding = "br" | "gzip";

/**
 * Picks which precompressed variant of a file to send for an `Accept-Encoding` header: among the
 * `available` ones, the one the client weighs highest (`br` on a tie), or null for the file as it
 * is. A coding listed with `q=0` is refused, and `*` stands for every coding the header does not name.
 */
export function chooseContentEncoding(options: { acceptEncoding: string | undefined; available: readonly PrecompressedEncoding[] }): PrecompressedEncoding | null {
  const header = options.acceptEncoding ?? "";
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (coding === "") continue;
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^q\s*=\s*([0-9.]+)$/.exec(parameter);
      if (match) weight = Number(match[1]);
    }
    weights.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: PrecompressedEncoding) => weights.get(coding) ?? (coding === "gzip" ? weights.get("x-gzip") : undefined) ?? weights.get("*") ?? 0;
  let best: PrecompressedEncoding | null = null;
  for (const coding of ["br", "gzip"] as const) {
    if (!options.available.includes(coding) || weightOf(coding) <= 0) continue;
    if (best === null || weightOf(coding) > weightOf(best)) best = coding;
  }
  return best;
}

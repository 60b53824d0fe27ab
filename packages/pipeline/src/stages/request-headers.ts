/** Request headers as Node gives them (lower-case names). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The first value of a header, or undefined when absent. Names must be lower-case. */
export function readHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  if (Array.isArray(value)) return value[0];
  return value;
}

import createClient from "openapi-fetch";
import type { paths } from "../generated/dashboard-api.js";
import { ApiError } from "./api-error.js";

/**
 * The typed dashboard API client (openapi-fetch over the types generated from the API's OpenAPI
 * document): paths, parameters and bodies are checked by the compiler. Same origin, so the
 * session cookie goes along and the browser's `Origin` satisfies the dashboard's origin rule.
 */
export const dashboardClient = createClient<paths>({ baseUrl: "", credentials: "same-origin" });

/** What every openapi-fetch call resolves to. */
interface FetchResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * Awaits a client call and answers its data, or throws an {@link ApiError} (with the answer's
 * request id) for error answers and network failures.
 */
export async function callApi<Data>(call: Promise<FetchResult<Data>>): Promise<Data> {
  let result: FetchResult<Data>;
  try {
    result = await call;
  } catch (error) {
    throw ApiError.network(error);
  }
  if (!result.response.ok) throw ApiError.fromResponse(result.response, result.error ?? null);
  return result.data as Data;
}

import { GatewayError } from "./gateway-error.js";

/**
 * Turns an error of Node's HTTP server `clientError` event (the request was refused by the
 * parser or timed out before it reached a handler) into the error to answer with:
 * - `ERR_HTTP_REQUEST_TIMEOUT` (headers or body not received within the server's timeouts): 408 `request_timeout`;
 * - `HPE_HEADER_OVERFLOW` (a header section larger than the parser reads): 431 `request_headers_too_large`;
 * - `HPE_CHUNK_EXTENSIONS_OVERFLOW`: 413 `request_too_large`;
 * - anything else (bad chunking, bare LF, a malformed request line or header): 400 `invalid_request`.
 * The message never repeats the parser's own text (it may quote request bytes).
 */
export function fromHttpParserError(error: { code?: unknown }): GatewayError {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new GatewayError("request_timeout", { message: "The request was not received in time.", cause: error });
    case "HPE_HEADER_OVERFLOW":
      return new GatewayError("request_headers_too_large", { cause: error });
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new GatewayError("request_too_large", { message: "The request's chunk extensions are larger than the server accepts.", cause: error });
    default:
      return new GatewayError("invalid_request", {
        message: "The request is not valid HTTP/1.1 (malformed request line, header or chunked body).",
        details: typeof error.code === "string" && error.code.startsWith("HPE_") ? { reason: error.code.slice(4).toLowerCase() } : null,
        cause: error,
      });
  }
}

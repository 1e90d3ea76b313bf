/**
 * The HTTP mode's read-ahead of request bodies: a POST whose JSON body
 * declares its length is read and parsed here in one go, so the SDK is handed
 * the parsed message instead of teeing and streaming the body itself.
 */
import { isJsonContentType } from "../deps/mcp.ts";

/** The largest body read ahead of the SDK: its own default limit, which it enforces on anything larger. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A POST's JSON-RPC body, read ahead of the SDK; a Response when it could not be read. */
export type ReadAhead = { request: Request; body?: unknown } | Response;

/**
 * Reads a POST body that declares its JSON type and length (every MCP
 * client's) in one go, so the SDK gets it parsed instead of teeing and
 * streaming it. Any other body goes on to the SDK unread, and one that is not
 * JSON as it came, for the SDK's own answer.
 */
export async function readAhead(request: Request, preRead?: Uint8Array): Promise<ReadAhead> {
  if (request.method !== "POST") return { request };
  const { method, headers, signal } = request;
  const json = isJsonContentType(headers.get("content-type"));
  if (preRead !== undefined) {
    // Read whole by the connection layer: parsed here when JSON, else handed on as bytes.
    if (!json) {
      return {
        request: new Request(request.url, {
          method,
          headers,
          body: preRead as Uint8Array<ArrayBuffer>,
          signal,
        }),
      };
    }
    return parsedOrAsIs(request, decoder.decode(preRead));
  }
  const length = headers.get("content-length");
  if (length === null || !/^\d+$/.test(length) || Number(length) > MAX_BODY_BYTES || !json) {
    // The SDK reads this one itself, from a clone: a copy whose signal is `signal` (see
    // withDisconnectSignal) keeps the clone's the same.
    return {
      request: new Request(
        request.url,
        { method, headers, body: request.body, signal, duplex: "half" } as RequestInit,
      ),
    };
  }
  let text: string;
  try {
    text = await request.text();
  } catch {
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32700, message: "Parse error: the request body could not be read" },
        id: null,
      },
      { status: 400 },
    );
  }
  return parsedOrAsIs(request, text);
}

const decoder = new TextDecoder();

/** The body `text` of `request` parsed, or, when it is not JSON, a request carrying it for the SDK's own answer. */
function parsedOrAsIs(request: Request, text: string): ReadAhead {
  try {
    if (text.length > 0) return { request, body: JSON.parse(text) };
  } catch {
    // not JSON: the SDK answers it
  }
  const { method, headers, signal } = request;
  return { request: new Request(request.url, { method, headers, body: text, signal }) };
}

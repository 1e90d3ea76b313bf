/**
 * MCP's stdio binding, hardened: newline-delimited JSON-RPC read from stdin
 * and written to stdout. Unlike the SDK's transport, a line that is not JSON
 * is answered with a JSON-RPC parse error (the SDK drops it unanswered), a
 * message that is not JSON-RPC with an invalid-request error, and an
 * over-long line is answered and skipped rather than ending the connection.
 * Whatever the input, only JSON-RPC is ever written to stdout.
 */
import {
  INVALID_REQUEST,
  type JSONRPCMessage,
  PARSE_ERROR,
  parseJSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";

/** The longest line read: 4 MiB. Any real MCP message is far smaller (tool arguments are capped). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Where the transport writes: `Deno.stdout` or anything with the same `write`. */
export interface LineSink {
  write(bytes: Uint8Array): Promise<number>;
}

/** Options for {@link StdioLineTransport}; the defaults are the process's own stdin and stdout. */
export interface StdioLineTransportOptions {
  input?: ReadableStream<Uint8Array>;
  output?: LineSink;
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** The id of a message that failed validation, when it has a usable one; else null, as JSON-RPC wants. */
function idOf(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Joins the pieces of one line. */
function concat(pieces: Uint8Array[], length: number): Uint8Array {
  const line = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    line.set(piece, offset);
    offset += piece.length;
  }
  return line;
}

/** A stdio transport that answers malformed input instead of dropping it; see the module comment. */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves when stdin has ended (the client's signal to exit) or the transport was closed. */
  readonly ended: Promise<void>;
  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: LineSink;
  readonly #maxLineBytes: number;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #writes: Promise<void> = Promise.resolve();
  #closed = false;
  #resolveEnded!: () => void;

  constructor(options: StdioLineTransportOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#output = options.output ?? Deno.stdout;
    this.#maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.ended = new Promise((resolve) => this.#resolveEnded = resolve);
  }

  /** Starts reading stdin; resolves at once. */
  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    void this.#pump(this.#reader);
    return Promise.resolve();
  }

  /** Writes one message as one line; writes are queued so lines never interleave. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the stdio transport is closed"));
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    const write = this.#writes.then(async () => {
      for (let offset = 0; offset < bytes.length;) {
        offset += await this.#output.write(bytes.subarray(offset));
      }
    });
    this.#writes = write.catch(() => {});
    return write;
  }

  /** Stops reading and reports the end; messages already queued are still written. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    this.onclose?.();
    this.#resolveEnded();
  }

  /** Reads stdin line by line until it ends; a line over the limit is answered at once and its rest skipped. */
  async #pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    let pieces: Uint8Array[] = [];
    let length = 0;
    let skipping = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let from = 0;
        while (from <= value.length) {
          const newline = value.indexOf(NEWLINE, from);
          const end = newline === -1 ? value.length : newline;
          if (!skipping && length + (end - from) > this.#maxLineBytes) {
            skipping = true;
            pieces = [];
            length = 0;
            this.#reject(
              null,
              INVALID_REQUEST,
              `Invalid Request: a line longer than ${this.#maxLineBytes} bytes was skipped`,
            );
          }
          if (!skipping && end > from) {
            pieces.push(value.slice(from, end));
            length += end - from;
          }
          if (newline === -1) break;
          if (!skipping) this.#line(concat(pieces, length));
          skipping = false;
          pieces = [];
          length = 0;
          from = newline + 1;
        }
      }
      if (!skipping && length > 0) this.#line(concat(pieces, length));
    } catch (error) {
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    await this.close();
  }

  /** Handles one complete line: a message goes on to the server; anything else is answered with an error. */
  #line(bytes: Uint8Array): void {
    const text = new TextDecoder().decode(bytes).replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#reject(null, PARSE_ERROR, "Parse error: the line is not valid JSON");
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.#reject(idOf(value), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers input that never reached the server. */
  #reject(id: string | number | null, code: number, message: string): void {
    const answer = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(answer).catch((error) => this.onerror?.(error));
  }
}

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
} from "../deps/mcp.ts";
import { concatBytes } from "../bitbucket/transport/bytes.ts";

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
  /** How long after stdin ends requests read may still be answered (default {@link END_GRACE_MS}). */
  endGraceMs?: number;
}

const NEWLINE = 0x0a;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** How much one read of a byte stream (stdin) takes at most, into the one buffer reused for every read. */
const READ_BYTES = 64 * 1024;

/** The buffer answers are encoded into before each is written: most fit. */
const WRITE_BYTES = 64 * 1024;

/**
 * How long, after stdin ends, the requests already read may still be
 * answered (a client that pipes its requests and closes stdin gets the
 * answers that need no long wait); what is still running then is cancelled.
 */
export const END_GRACE_MS = 2_000;

/** One read of the input: a chunk, or the end. */
type Read = () => Promise<ReadableStreamReadResult<Uint8Array>>;

/**
 * Reads from `reader`: a byte stream's (stdin's) BYOB reader fills one
 * buffer, handed back for each read, where the default reader would allocate
 * a fresh 64 KiB buffer per read for the collector to find later.
 */
function reads(reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>): Read {
  if (!(reader instanceof ReadableStreamBYOBReader)) return () => reader.read();
  let buffer = new ArrayBuffer(READ_BYTES);
  return async () => {
    const result = await reader.read(new Uint8Array(buffer));
    if (result.value) buffer = result.value.buffer;
    return result as ReadableStreamReadResult<Uint8Array>;
  };
}

/** The id of a message that failed validation, when it has a usable one; else null, as JSON-RPC wants. */
function idOf(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
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
  #reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array> | undefined;
  #writes: Promise<void> = Promise.resolve();
  readonly #writeBuffer = new Uint8Array(WRITE_BYTES);
  #closed = false;
  readonly #endGraceMs: number;
  /** Ids of the requests read and not answered yet. */
  readonly #unanswered = new Set<string | number>();
  /** Called when the last unanswered request is answered. */
  #drained: (() => void) | undefined;
  #resolveEnded!: () => void;

  constructor(options: StdioLineTransportOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#output = options.output ?? Deno.stdout;
    this.#maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.#endGraceMs = options.endGraceMs ?? END_GRACE_MS;
    this.ended = new Promise((resolve) => this.#resolveEnded = resolve);
  }

  /** Starts reading stdin; resolves at once. */
  start(): Promise<void> {
    let reader;
    try {
      reader = this.#input.getReader({ mode: "byob" });
    } catch {
      reader = this.#input.getReader(); // not a byte stream
    }
    this.#reader = reader;
    void this.#pump(reads(reader));
    return Promise.resolve();
  }

  /** Writes one message as one line; writes are queued so lines never interleave. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the stdio transport is closed"));
    const line = JSON.stringify(message) + "\n";
    const write = this.#writes.then(async () => {
      const bytes = this.#encode(line);
      for (let offset = 0; offset < bytes.length;) {
        offset += await this.#output.write(bytes.subarray(offset));
      }
    });
    this.#writes = write.catch(() => {});
    // An answer to a request read: once the last is queued, the end of stdin may close.
    if ("id" in message && !("method" in message) && this.#unanswered.delete(message.id!)) {
      if (this.#unanswered.size === 0) this.#drained?.();
    }
    return write;
  }

  /**
   * A line's UTF-8 bytes. Writes run one at a time, so a line that surely
   * fits (any answer but the largest) is encoded into one buffer reused for
   * every write; a longer one gets its own.
   */
  #encode(line: string): Uint8Array {
    if (line.length * 3 > WRITE_BYTES) return encoder.encode(line);
    const { written } = encoder.encodeInto(line, this.#writeBuffer);
    return this.#writeBuffer.subarray(0, written);
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
  async #pump(read: Read): Promise<void> {
    let pieces: Uint8Array[] = [];
    let length = 0;
    let skipping = false;
    try {
      for (;;) {
        const { done, value } = await read();
        if (done) break;
        // `value` is done with before the next read reuses its buffer: a line is decoded at once,
        // and the pieces of one that goes on into the next chunk are copies.
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
          if (!skipping && newline !== -1 && pieces.length === 0) {
            // A whole line in this chunk (the usual case): read in place, no copy.
            this.#line(value.subarray(from, end));
            from = newline + 1;
            continue;
          }
          if (!skipping && end > from) {
            pieces.push(value.slice(from, end));
            length += end - from;
          }
          if (newline === -1) break;
          if (!skipping) this.#line(concatBytes(pieces, length));
          skipping = false;
          pieces = [];
          length = 0;
          from = newline + 1;
        }
      }
      if (!skipping && length > 0) this.#line(concatBytes(pieces, length));
    } catch (error) {
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    await this.#answered(this.#endGraceMs);
    await this.close();
  }

  /**
   * Resolves once every request read has been answered and the answers
   * written, or after `graceMs`, whichever is first.
   */
  async #answered(graceMs: number): Promise<void> {
    if (this.#unanswered.size === 0) return await this.#writes;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.#drained = resolve),
      new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs)),
    ]);
    clearTimeout(timer);
    await this.#writes;
  }

  /** Handles one complete line: a message goes on to the server; anything else is answered with an error. */
  #line(bytes: Uint8Array): void {
    const text = decoder.decode(bytes).replace(/\r$/, "");
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
    if ("method" in message && "id" in message) this.#unanswered.add(message.id);
    this.onmessage?.(message);
  }

  /** Answers input that never reached the server. */
  #reject(id: string | number | null, code: number, message: string): void {
    const answer = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(answer).catch((error) => this.onerror?.(error));
  }
}

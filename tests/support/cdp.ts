/**
 * A minimal Chrome DevTools Protocol client over Deno's built-in WebSocket:
 * commands with replies, events by name, and flattened sessions (one socket
 * for the browser and every page and frame attached to it). The browser
 * tests drive headless Chromium with it; no browser library is downloaded.
 */

/** One CDP event: its name, parameters, and the session it came from (absent: the browser). */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

interface Pending {
  method: string;
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

/** A connection to one browser's DevTools endpoint. */
export class Cdp {
  #socket: WebSocket;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #listeners = new Map<string, Set<(event: CdpEvent) => void>>();
  #closed: Promise<void>;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    this.#closed = new Promise((resolve) => {
      socket.addEventListener("close", () => {
        for (const pending of this.#pending.values()) {
          pending.reject(new Error(`CDP ${pending.method}: the browser closed the connection`));
        }
        this.#pending.clear();
        resolve();
      });
    });
    socket.addEventListener("message", (message) => this.#receive(String(message.data)));
  }

  /** Opens the browser-wide endpoint Chromium printed (`DevTools listening on ws://…`). */
  static async connect(url: string): Promise<Cdp> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener(
        "error",
        () => reject(new Error(`Cannot reach the browser's DevTools at ${url}`)),
        { once: true },
      );
    });
    return new Cdp(socket);
  }

  /** Sends a command (to a session when given) and resolves with its result; rejects with its error. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const message = sessionId ? { id, method, params, sessionId } : { id, method, params };
    return new Promise((resolve, reject) => {
      if (this.#socket.readyState !== WebSocket.OPEN) {
        reject(new Error(`CDP ${method}: the connection is closed`));
        return;
      }
      this.#pending.set(id, { method, resolve, reject });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Calls `handler` for every event named `method`, from any session; returns the way to stop. */
  on(method: string, handler: (event: CdpEvent) => void): () => void {
    let set = this.#listeners.get(method);
    if (!set) this.#listeners.set(method, set = new Set());
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Closes the socket and waits until it is closed (no leaked resource for Deno's sanitizers). */
  async close(): Promise<void> {
    if (this.#socket.readyState === WebSocket.CLOSED) return;
    if (this.#socket.readyState !== WebSocket.CLOSING) this.#socket.close();
    await this.#closed;
  }

  /** Resolves once the browser side has closed the socket. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  #receive(data: string): void {
    const message = JSON.parse(data) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string; data?: string };
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error) {
        const detail = message.error.data ? ` (${message.error.data})` : "";
        pending.reject(new Error(`CDP ${pending.method}: ${message.error.message}${detail}`));
      } else {
        pending.resolve(message.result ?? {});
      }
      return;
    }
    if (!message.method) return;
    const event: CdpEvent = {
      method: message.method,
      params: message.params ?? {},
      sessionId: message.sessionId,
    };
    for (const handler of this.#listeners.get(message.method) ?? []) handler(event);
  }
}

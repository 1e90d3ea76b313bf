import type { Wire } from "./stdio_server.ts";

/** The part of any SDK generation's transport that delivers inbound messages. */
interface Inbound {
  onmessage?: (message: never, extra?: never) => void;
}

/**
 * Wraps a client transport (of any SDK generation) so every message it hands
 * to the client is also pushed onto `seen`: a way to read the wire, e.g. the
 * revision the server answered `initialize` with.
 */
export function recordingReplies<T extends Inbound>(transport: T, seen: Wire[]): T {
  return new Proxy(transport, {
    set(target, property, value, receiver) {
      if (property === "onmessage" && typeof value === "function") {
        const deliver = value as (message: Wire, extra?: unknown) => void;
        return Reflect.set(
          target,
          property,
          (message: Wire, extra?: unknown) => {
            seen.push(message);
            deliver(message, extra);
          },
          receiver,
        );
      }
      return Reflect.set(target, property, value, receiver);
    },
  });
}

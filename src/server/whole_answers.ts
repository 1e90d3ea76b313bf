/**
 * Quick 2025-era answers sent whole. The SDK answers a 2025-era POST with an
 * event stream that opens at once and carries the result when the call ends.
 * Streaming a body costs Deno's server about a tenth of a call's time over
 * sending bytes it already has, and most calls end within moments, so an
 * answer's stream is read for up to {@link WHOLE_ANSWER_WINDOW_MS}: ended by
 * then, it goes out as one body of the same events; still open, it streams
 * from then on, what was read first, so a long call still opens its stream
 * (and a client leaving mid-call is still seen), and a question or progress
 * sent in the window reaches the client at its end.
 */

import { concatBytes } from "../bitbucket/transport/bytes.ts";

/** How long an answer's event stream is read before it is streamed as it comes. */
export const WHOLE_ANSWER_WINDOW_MS = 100;

/** Whether `response` is an event stream (what a 2025-era POST is answered with). */
function isEventStream(response: Response): boolean {
  return response.body !== null &&
    (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
}

/**
 * `response` as the client gets it: an event stream that ends within
 * `windowMs` as one body with the same status and headers; an open one as a
 * stream of what was read, then the rest; anything else untouched.
 */
export async function wholeIfQuick(
  response: Response,
  windowMs = WHOLE_ANSWER_WINDOW_MS,
): Promise<Response> {
  if (!isEventStream(response)) return response;
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), windowMs);
  });
  const init = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  };
  const whole = () => new Response(concatBytes(chunks), init);
  let pending = reader.read();
  try {
    for (;;) {
      const next = await Promise.race([pending, late]);
      if (next === "late") break;
      if (next.done) return whole();
      chunks.push(next.value);
      pending = reader.read();
    }
  } catch {
    return whole();
  } finally {
    clearTimeout(timer);
  }
  // Still open: what was read goes first, then the read under way, then the rest as it comes.
  let waiting: typeof pending | undefined = pending;
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const next = await (waiting ?? reader.read());
      waiting = undefined;
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(rest, init);
}

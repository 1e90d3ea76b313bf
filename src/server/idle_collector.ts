/**
 * Giving memory back while the server is idle: one full garbage collection
 * once Bitbucket requests have stopped for a while.
 */
import v8 from "node:v8";
import vm from "node:vm";

/**
 * V8's full garbage collector, reached without `--expose-gc` on the command
 * line: the flag is set at run time and `gc` read from a fresh context.
 * Undefined if this runtime does not allow it.
 */
export function fullCollector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    return typeof gc === "function" ? gc as () => void : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps `fetch` so that, once Bitbucket requests stop for `quietMs`, one full
 * collection runs. V8 collects lazily, so after a burst of calls the garbage
 * would otherwise sit in memory for as long as the server stays idle, which
 * for an MCP server is most of its life. A request costs a counter and a
 * clock read: one timer at a time checks, when it fires, whether the quiet
 * time has passed, and waits out the rest if not. The timer never keeps the
 * process alive.
 */
export function collectWhenIdle(
  inner: typeof fetch,
  quietMs = 1000,
  collect: (() => void) | undefined = undefined,
): typeof fetch {
  let gc = collect;
  let resolved = collect !== undefined;
  let armed = false;
  let inFlight = 0;
  let lastEnded = 0;
  const arm = (ms: number) => {
    armed = true;
    Deno.unrefTimer(setTimeout(check, ms));
  };
  const check = () => {
    armed = false;
    // A request in flight re-arms the timer when it ends.
    if (inFlight > 0) return;
    const quiet = performance.now() - lastEnded;
    if (quiet < quietMs) return arm(quietMs - quiet);
    if (!resolved) {
      gc = fullCollector();
      resolved = true;
    }
    gc?.();
  };
  return async (input, init) => {
    inFlight++;
    try {
      return await inner(input, init);
    } finally {
      inFlight--;
      lastEnded = performance.now();
      if (!armed) arm(quietMs);
    }
  };
}

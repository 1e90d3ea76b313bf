/**
 * When a failed request is tried again. Only reads (GET) are ever retried, and
 * only after an answer that means "try later" (429, 502, 503, 504) or a
 * connection dropped mid-way. Waits follow Bitbucket's `Retry-After` when it
 * sends one, else an exponential backoff; each wait and their sum are capped.
 */

/** How many times, and how long between, a GET is tried. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** The backoff before the second attempt; it doubles for each later one. */
  baseDelayMs: number;
  /** The longest single wait. A `Retry-After` asking for more is not waited for: the error says how long it asked. */
  maxDelayMs: number;
  /** The most the waits of one request may add up to. */
  maxTotalDelayMs: number;
}

/** The policy in force: 3 attempts; backoff 0.5 s then 1 s; no wait over 10 s; at most 15 s of waiting in all. */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxTotalDelayMs: 15_000,
};

/** Statuses that say the same request may succeed a moment later. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds (`120`) or an HTTP
 * date (`Wed, 21 Oct 2026 07:28:00 GMT`), never negative; undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; anything else ("-5", "soon") is unreadable.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait before the next attempt, after `attempt` attempts that waited
 * `waitedMs` in all; undefined when there must be no further attempt. The
 * backoff is shortened by up to a quarter at random (`random` in [0, 1)), so
 * that clients that failed together do not retry together.
 */
export function nextDelay(
  policy: RetryPolicy,
  attempt: number,
  waitedMs: number,
  askedMs: number | undefined,
  random: number = Math.random(),
): number | undefined {
  if (attempt >= policy.attempts) return undefined;
  const delay = askedMs ?? Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (1 - random / 4));
  if (delay > policy.maxDelayMs || waitedMs + delay > policy.maxTotalDelayMs) return undefined;
  return delay;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

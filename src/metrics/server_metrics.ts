/**
 * The metrics this server publishes on `/metrics` (HTTP mode only: nothing
 * here is made on stdio): tool calls by tool and outcome, their latency,
 * calls in flight, Bitbucket requests by status class, retries and 429s,
 * confirmations by outcome, process memory and the build. Every label value
 * comes from a fixed set or from the server's own tool names, never from a
 * request: no token, user name or argument can reach a label.
 */
import { Counter, Gauge, Histogram, Registry } from "./registry.ts";

/** How a tool call ended, as `bitbucket_mcp_tool_calls_total{outcome}` counts it. */
export const CALL_OUTCOMES = [
  /** The tool ran and answered. */
  "ok",
  /** The tool failed (Bitbucket refused or failed, the network, a bug): it threw. */
  "error",
  /** The server refused the call before or instead of running it (arguments, confinement, audit, a stale confirmation). */
  "refused",
  /** The person declined (or cancelled) the confirmation: nothing was done. */
  "declined",
  /** The call answered with the question to the person (its retry is counted on its own). */
  "input_required",
] as const;

/** One of {@link CALL_OUTCOMES}. */
export type CallOutcomeLabel = (typeof CALL_OUTCOMES)[number];

/** What a Bitbucket exchange is counted as: its status class, or `network` when no answer came. */
export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx", "network"] as const;

/** One of {@link STATUS_CLASSES}. */
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** The confirmation outcomes counted (the audit's, less `not needed`, which asked nobody). */
export const CONFIRMATION_OUTCOMES = [
  "asked",
  "accepted",
  "declined",
  "cancelled",
  "unavailable",
  "replayed",
  "stale",
] as const;

/**
 * The call latency buckets, in seconds. A call against a near Bitbucket takes
 * tens of milliseconds (a read) to a few hundred (a diff, a search); the low
 * buckets separate those. A GET retried after a 429 or 5xx waits 0.5 s, then
 * 1 s (`DEFAULT_RETRY`), up to 15 s of waiting, and the default deadline is
 * 30 s: the 2.5–30 buckets show retries and calls near the deadline, and
 * whatever lands in `+Inf` ran past the longest deadline a default server sets.
 */
export const LATENCY_BUCKETS_SECONDS = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
];

/** The status class of an answer, or `network` for none. */
export function statusClass(status: number | undefined): StatusClass {
  if (status === undefined || status < 200 || status >= 600) return "network";
  return `${Math.floor(status / 100)}xx` as StatusClass;
}

/** One tool call being timed: end it once with its outcome. */
export interface CallTimer {
  end(outcome: CallOutcomeLabel): void;
}

/** The metrics of one server process. */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly calls: Counter;
  readonly latency: Histogram;
  readonly inFlight: Gauge;
  readonly bitbucketRequests: Counter;
  readonly rateLimited: Counter;
  readonly retries: Counter;
  readonly confirmations: Counter;
  readonly #confirmationNames: ReadonlySet<string> = new Set(CONFIRMATION_OUTCOMES);

  /** `version`: the build reported by `bitbucket_mcp_build_info`. */
  constructor(version: string) {
    const r = this.registry;
    r.add(
      new Gauge(
        "bitbucket_mcp_build_info",
        "The running build: always 1, its version and Deno's in the labels.",
        ["version", "deno"],
      ),
    ).set([version, Deno.version.deno], 1);
    this.calls = r.add(
      new Counter(
        "bitbucket_mcp_tool_calls_total",
        "Tool calls by tool and outcome (ok, error, refused, declined, input_required).",
        ["tool", "outcome"],
      ),
    );
    this.latency = r.add(
      new Histogram(
        "bitbucket_mcp_tool_call_duration_seconds",
        "How long tool calls took, from the call reaching the tool to its answer.",
        ["tool"],
        LATENCY_BUCKETS_SECONDS,
      ),
    );
    this.inFlight = r.add(
      new Gauge("bitbucket_mcp_tool_calls_in_flight", "Tool calls running now."),
    );
    this.bitbucketRequests = r.add(
      new Counter(
        "bitbucket_mcp_bitbucket_requests_total",
        "HTTP exchanges with Bitbucket (each retry and redirect one), by status class; network: no answer.",
        ["class"],
      ),
    );
    this.rateLimited = r.add(
      new Counter(
        "bitbucket_mcp_bitbucket_rate_limited_total",
        "Bitbucket answers 429 Too Many Requests.",
      ),
    );
    this.retries = r.add(
      new Counter(
        "bitbucket_mcp_bitbucket_retries_total",
        "Bitbucket reads tried again after a passing failure (429, 502, 503, 504, a dropped connection).",
      ),
    );
    this.confirmations = r.add(
      new Counter(
        "bitbucket_mcp_confirmations_total",
        "Confirmations by outcome: asked (the question sent), accepted, declined, cancelled, unavailable, replayed, stale.",
        ["outcome"],
      ),
    );
    r.add(
      new Gauge(
        "process_resident_memory_bytes",
        "Resident memory of the process.",
        [],
        (g) => g.set([], Deno.memoryUsage().rss),
      ),
    );
    r.add(
      new Gauge(
        "bitbucket_mcp_heap_bytes",
        "The V8 heap: used and total.",
        ["kind"],
        (g) => {
          const { heapUsed, heapTotal } = Deno.memoryUsage();
          g.set(["used"], heapUsed);
          g.set(["total"], heapTotal);
        },
      ),
    );
    r.add(
      new Gauge(
        "process_start_time_seconds",
        "When the process started, in seconds since the Unix epoch.",
      ),
    ).set([], Math.round((Date.now() - performance.now()) / 1000));
    // Every class and outcome is there from the start, at 0, so a rate over them never starts
    // from a missing series.
    for (const c of STATUS_CLASSES) this.bitbucketRequests.inc([c], 0);
    for (const o of CONFIRMATION_OUTCOMES) this.confirmations.inc([o], 0);
  }

  /** Starts timing a call of `tool` (counted in flight until it ends). */
  call(tool: string): CallTimer {
    const started = performance.now();
    this.inFlight.inc();
    let ended = false;
    return {
      end: (outcome) => {
        if (ended) return;
        ended = true;
        this.inFlight.dec();
        this.calls.inc([tool, outcome]);
        this.latency.observe([tool], (performance.now() - started) / 1000);
      },
    };
  }

  /** Counts what became of asking the person (`not needed` asked nobody and is not counted). */
  confirmation(outcome: string): void {
    if (this.#confirmationNames.has(outcome)) this.confirmations.inc([outcome]);
  }

  /** Counts one exchange with Bitbucket: its status, or undefined when no answer came. */
  bitbucketAnswer(status: number | undefined): void {
    this.bitbucketRequests.inc([statusClass(status)]);
    if (status === 429) this.rateLimited.inc();
  }

  /** Counts one read tried again. */
  retry = (): void => this.retries.inc();

  /** `inner` with every exchange counted by {@link bitbucketAnswer}. */
  countingFetch(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      let response: Response;
      try {
        response = await inner(input, init);
      } catch (error) {
        this.bitbucketAnswer(undefined);
        throw error;
      }
      this.bitbucketAnswer(response.status);
      return response;
    };
  }

  /** Everything, in the text exposition format. */
  render(): string {
    return this.registry.render();
  }
}

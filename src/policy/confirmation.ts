/**
 * Asking the person before a risky call. A call that needs a yes first
 * answers `input_required`: a form saying in plain words what will happen,
 * with one confirmation field, and a signed `requestState` the retry must
 * send back. On 2026-07-28 the client asks and retries; on a 2025-era
 * connection the SDK's shim sends `elicitation/create` and re-enters the
 * handler, so one code path serves both eras. The state is an HMAC-signed
 * envelope (the SDK's codec, keyed per process or by BITBUCKET_MCP_STATE_KEY)
 * holding the tool, a digest of its arguments, the version and binding the
 * person saw (the state of what the call changes) and a one-time nonce; it
 * expires after {@link STATE_TTL_SECONDS}. The nonce store is per process, so
 * behind a load balancer sharing the key a state could be retried once on each
 * instance: the binding, read again after the yes, is what refuses such a
 * replay (what it confirmed has changed by then) on any instance.
 *
 * {@link guardedCall} is the one place a call is held: audit and confinement
 * can wrap the same `run` it is given.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  inputRequired,
  type InputRequiredResult,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  type RequestStateCodec,
  type ServerContext,
} from "../deps/mcp.ts";
import { BitbucketError } from "../bitbucket/transport/errors.ts";
import type { Confirmation } from "../tools/kit/define.ts";
import type { ConfirmationOutcome } from "./audit.ts";

/** How long a confirmation state stays valid. */
export const STATE_TTL_SECONDS = 300;

/** The key of the one input request, and of the form's one field. */
export const CONFIRM_KEY = "confirm";

/** The form: one boolean that starts unset (no default), required. */
export const CONFIRM_SCHEMA = {
  type: "object" as const,
  properties: {
    [CONFIRM_KEY]: {
      type: "boolean" as const,
      title: "Go ahead",
      description: "Tick to let the agent do exactly this",
    },
  },
  required: [CONFIRM_KEY],
};

/** What a sealed state holds: tool, argument digest, nonce, version, binding state. */
interface Sealed {
  t: string;
  a: string;
  n: string;
  v?: number;
  b?: string;
}

/** What a state binds the call to: the version and binding state the person saw. */
export interface Bound {
  version?: number;
  binding?: string;
}

/** A state refused before anything is read; `replayed` when it was already used here. */
export class StateRefused extends Error {
  /** True when the state was genuine but already used on this instance. */
  readonly replayed: boolean;
  constructor(message: string, replayed: boolean) {
    super(message);
    this.name = "StateRefused";
    this.replayed = replayed;
  }
}

/**
 * Signs and checks confirmation states: one per process, holding the key and
 * the nonces already used (a state is good for one retry).
 */
export class Confirmations {
  readonly #codec: RequestStateCodec<Sealed>;
  readonly #ttlMs: number;
  readonly #used = new Map<string, number>();

  /** `key` (≥ 32 bytes) shares states between instances; absent, a random one is made. */
  constructor(options: { key?: string | Uint8Array; ttlSeconds?: number } = {}) {
    const ttlSeconds = options.ttlSeconds ?? STATE_TTL_SECONDS;
    this.#ttlMs = Math.max(ttlSeconds, 0) * 1000;
    this.#codec = createRequestStateCodec<Sealed>({
      key: options.key ?? crypto.getRandomValues(new Uint8Array(32)),
      ttlSeconds,
    });
  }

  /** A signed state for this call of `tool` with `args`, bound to what the person saw. */
  async seal(tool: string, args: unknown, bound: Confirmation | Bound): Promise<string> {
    const sealed: Sealed = { t: tool, a: await digest(args), n: crypto.randomUUID() };
    if (bound.version !== undefined) sealed.v = bound.version;
    const binding = typeof bound.binding === "string" ? bound.binding : bound.binding?.state;
    if (binding !== undefined) sealed.b = binding;
    return await this.#codec.mint(sealed);
  }

  /**
   * What the state is bound to, once it is proven ours, unexpired, unused
   * here and for exactly this tool and these arguments; otherwise throws a
   * {@link StateRefused} naming why (the call answers an error result, and
   * nothing is written).
   */
  async open(tool: string, args: unknown, state: string): Promise<Bound> {
    let sealed: Sealed;
    try {
      sealed = await this.#codec.verify(state, undefined as unknown as ServerContext);
    } catch (error) {
      const reason = error instanceof Error ? error.message : "malformed";
      throw refused(tool, reason === "expired" ? "it expired" : "it is not one this server signed");
    }
    if (sealed.t !== tool || sealed.a !== await digest(args)) {
      throw refused(tool, "it was given for another call or other arguments");
    }
    const now = Date.now();
    for (const [nonce, until] of this.#used) if (until < now) this.#used.delete(nonce);
    if (this.#used.has(sealed.n)) throw refused(tool, "it was already used", true);
    this.#used.set(sealed.n, now + this.#ttlMs);
    const bound: Bound = {};
    if (sealed.v !== undefined) bound.version = sealed.v;
    if (sealed.b !== undefined) bound.binding = sealed.b;
    return bound;
  }
}

/** The refusal of a bad state: nothing was sent to Bitbucket. */
function refused(tool: string, why: string, replayed = false): StateRefused {
  return new StateRefused(
    `Cannot call ${tool} with this confirmation state: ${why}; nothing was sent to Bitbucket (hint: call the tool again without requestState so the person is asked afresh)`,
    replayed,
  );
}

/** SHA-256 of the arguments as canonical JSON (keys sorted at every depth). */
async function digest(args: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(canonical(args)));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a < b ? -1 : 1)
      .map(([k, v]) => [k, canonical(v)]),
  );
}

/** The sentence every refusal of a client that cannot ask carries. */
export function cannotAsk(tool: string): string {
  return `Cannot call ${tool}: it needs the person's confirmation, and this client cannot ask them (it declares no elicitation capability); nothing was sent to Bitbucket (hint: use a client that supports elicitation, or have the person start the server with --yolo, which trusts the agent without asking, or with --withhold-unsafe, which hides such tools)`;
}

/**
 * The refusal of a 2025-era request over stateless HTTP: whatever the client
 * declared, the question could not reach it (only a session can carry it).
 */
export function cannotCarry(tool: string): string {
  return `Cannot call ${tool}: it needs the person's confirmation, and this request cannot carry the question: over HTTP a 2025-era client is asked only within a session, which this server opens at initialize for a client that declares elicitation (none was opened for this one: it declared none, or the server held its most sessions); nothing was sent to Bitbucket (hint: reconnect a client that supports elicitation so it gets a session, use a client on MCP 2026-07-28, or have the person start the server with --yolo, which trusts the agent without asking)`;
}

/** Why a client that cannot be asked is refused: what it declared, or that the request cannot carry a question. */
function refusal(ctx: ServerContext, tool: string): string {
  return ctx.http !== undefined && ctx.sessionId === undefined
    ? cannotCarry(tool)
    : cannotAsk(tool);
}

/** The revision elicitation arrived in: a client of an earlier one is never asked, whatever it declares. */
export const ELICITATION_SINCE = "2025-06-18";

/**
 * The capabilities a 2025-era client declared at initialize, less elicitation
 * when the `revision` negotiated predates it (asking such a client fails with
 * "Method not found" instead of the refusal naming the flags).
 */
export function connectionCapabilities(
  declared: ClientCapabilities | undefined,
  revision: string | undefined,
): ClientCapabilities | undefined {
  if (declared?.elicitation === undefined || revision === undefined) return declared;
  if (revision >= ELICITATION_SINCE) return declared;
  const { elicitation: _lacking, ...rest } = declared;
  return rest;
}

/** Whether the client that sent this request can show a form (elicitation, form mode). */
export function canAsk(ctx: ServerContext, connection: ClientCapabilities | undefined): boolean {
  const caps = modern(ctx)
    ? envelopeOf(ctx)[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined
    : connection;
  const elicitation = caps?.elicitation;
  // `elicitation: {}` counts as form support (the rule from before modes existed).
  return elicitation !== undefined &&
    (elicitation.form !== undefined || elicitation.url === undefined);
}

/** True on a 2026-07-28 request (it carries the per-request envelope). */
function modern(ctx: ServerContext): boolean {
  return envelopeOf(ctx)[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/** The request's reserved `_meta` keys (the SDK types the envelope as an empty object). */
function envelopeOf(ctx: ServerContext): Record<string, unknown> {
  return (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
}

/** Everything {@link guardedCall} needs besides the call itself. */
export interface Guard {
  tool: string;
  args: unknown;
  ctx: ServerContext;
  /** The capabilities the client declared at initialize (2025 era). */
  connection: ClientCapabilities | undefined;
  confirmations: Confirmations;
  /** Every call asks (an unsafe write): a client that cannot ask is refused before anything is read. */
  always: boolean;
  /** The sentence to ask, read now; undefined when these arguments need no confirmation. */
  ask: () => Promise<Confirmation | undefined>;
  /** Told what became of asking (the audit log records it). */
  decided?: (outcome: ConfirmationOutcome) => void;
}

/** What a held call resolves to: the call's own result, or the question. */
export type Guarded<R> = R | InputRequiredResult | {
  content: { type: "text"; text: string }[];
  isError: true;
};

/**
 * Runs `run` once the person said yes (or at once when `ask` finds nothing to
 * ask), passing what they confirmed. The first call answers with the
 * question; the retry is checked (state, arguments, answer) and, when the
 * state is bound, what it acts on is read again and must still be as the
 * person saw it, before anything is written.
 */
export async function guardedCall<R>(
  guard: Guard,
  run: (confirmed: Confirmation | undefined) => Promise<R>,
): Promise<Guarded<R>> {
  const { tool, args, ctx } = guard;
  const decided = guard.decided ?? (() => {});
  const state = ctx.mcpReq.requestState();
  if (typeof state === "string") {
    const sealed = await guard.confirmations.open(tool, args, state).catch((error) => {
      if (error instanceof StateRefused && error.replayed) decided("replayed");
      throw error;
    });
    const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
    if (answer.kind !== "elicit") {
      throw new Error(
        `Cannot call ${tool}: the retry carries no answer to '${CONFIRM_KEY}' (hint: call the tool again without requestState so the person is asked afresh)`,
      );
    }
    if (answer.action !== "accept" || answer.content?.[CONFIRM_KEY] !== true) {
      const what = answer.action === "accept"
        ? "did not tick the confirmation"
        : `${answer.action}d`;
      decided(answer.action === "cancel" ? "cancelled" : "declined");
      return failure(
        `Not done: the person ${what}, so ${tool} did nothing and nothing was sent to Bitbucket (hint: do not retry unless they ask you to)`,
      );
    }
    decided("accepted");
    if (sealed.version === undefined && sealed.binding === undefined) return await run(undefined);
    let now: Confirmation | undefined;
    try {
      now = await guard.ask();
    } catch (error) {
      // What it acts on is gone (a replay after the write finds this); a failure to read is not that.
      const gone = !(error instanceof BitbucketError) || error.kind === "not_found";
      if (gone) decided("stale");
      throw error;
    }
    const changed = changeOf(sealed, now);
    if (changed !== undefined) {
      decided("stale");
      return failure(
        `Cannot call ${tool}: what the person confirmed changed meanwhile (${changed}); nothing was written (hint: a replayed confirmation finds this too; look at the change, then call again so the person confirms it as it is now)`,
      );
    }
    return await run(now);
  }
  const able = canAsk(ctx, guard.connection);
  if (!able) decided("unavailable");
  if (guard.always && !able && !modern(ctx)) return failure(refusal(ctx, tool));
  const question = guard.always && !able ? { message: `Call ${tool}` } : await guard.ask();
  if (question === undefined) {
    decided("not needed");
    return await run(undefined);
  }
  if (!able) {
    if (!modern(ctx)) return failure(refusal(ctx, tool));
    // A 2026-07-28 client without the capability: returning the request lets
    // the SDK answer the spec's -32021 error, whose message names the key.
    return inputRequired({
      inputRequests: {
        [cannotAsk(tool)]: inputRequired.elicit({
          message: question.message,
          requestedSchema: CONFIRM_SCHEMA,
        }),
      },
    });
  }
  decided("asked");
  return inputRequired({
    inputRequests: {
      [CONFIRM_KEY]: inputRequired.elicit({
        message: question.message,
        requestedSchema: CONFIRM_SCHEMA,
      }),
    },
    requestState: await guard.confirmations.seal(tool, args, question),
  });
}

/** How what the person confirmed differs from what is read now, in words; undefined when it does not. */
function changeOf(sealed: Bound, now: Confirmation | undefined): string | undefined {
  if (now === undefined) return "it no longer needs confirming, so it is not as the person saw it";
  if (now.version !== sealed.version) {
    return `version ${sealed.version} was confirmed, it is now at version ${now.version}`;
  }
  if (now.binding?.state !== sealed.binding) {
    const what = now.binding?.what ?? "what it acts on";
    return `${what} was ${sealed.binding ?? "unbound"} when confirmed, it is now ${
      now.binding?.state ?? "unbound"
    }`;
  }
  return undefined;
}

function failure(text: string) {
  return { content: [{ type: "text" as const, text }], isError: true as const };
}

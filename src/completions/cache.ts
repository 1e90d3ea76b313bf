/**
 * A short-lived cache of what completions asked Bitbucket, so that typing an
 * argument asks once and filters the answer on every keystroke. Entries are
 * keyed by who asked ({@link callerKey}): one caller's answers never reach
 * another, and no token is ever kept, only a salted SHA-256 of it. The cache
 * is bounded and its entries expire.
 */
import type { ServerContext } from "../deps/mcp.ts";

/** How long an answer is reused. */
export const ANSWER_TTL_MS = 30_000;
/** The most answers kept at once. */
export const MAX_ANSWERS = 500;

/** Options for {@link AnswerCache}; tests shorten or drive time. */
export interface AnswerCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/** A bounded cache of answers in flight or recent, each expiring `ttlMs` after it was asked for. */
export class AnswerCache {
  readonly #entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: AnswerCacheOptions = {}) {
    this.#ttlMs = options.ttlMs ?? ANSWER_TTL_MS;
    this.#max = options.maxEntries ?? MAX_ANSWERS;
    this.#now = options.now ?? Date.now;
  }

  /** How many answers are held now (expired ones included until they are evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /** The answer held for `key`, if it has not expired. */
  peek<T>(key: string): Promise<T> | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > this.#now()) return entry.value as Promise<T>;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * The answer for `key`: the one held, else `ask()`'s, held from now on (a
   * failed answer is dropped at once, so the next keystroke asks again).
   */
  through<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const held = this.peek<T>(key);
    if (held !== undefined) return held;
    const value = ask();
    this.#evict();
    this.#entries.set(key, { expires: this.#now() + this.#ttlMs, value });
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    return value;
  }

  /** Makes room for one more: expired entries go first, then the oldest. */
  #evict(): void {
    if (this.#entries.size < this.#max) return;
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.expires <= now) this.#entries.delete(key);
    }
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.#max) break;
      this.#entries.delete(key);
    }
  }
}

/** A random salt per process, so a cache key is no token verifier outside it. */
const SALT = crypto.getRandomValues(new Uint8Array(16));
/** A key per client object, for servers whose calls carry no token (stdio: one client). */
const objectKeys = new WeakMap<object, string>();

/**
 * Who a request acts as, as a cache key: over HTTP a salted SHA-256 of the
 * request's own token (one client object is made per call there), otherwise
 * the one Bitbucket client the server holds. Never the token itself.
 */
export async function callerKey(ctx: ServerContext, client: object): Promise<string> {
  const auth = ctx.http?.authInfo;
  if (auth === undefined) {
    let key = objectKeys.get(client);
    if (key === undefined) {
      key = `client:${crypto.randomUUID()}`;
      objectKeys.set(client, key);
    }
    return key;
  }
  const text = new TextEncoder().encode(`${auth.clientId}\n${auth.token}`);
  const bytes = new Uint8Array(SALT.length + text.length);
  bytes.set(SALT);
  bytes.set(text, SALT.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `token:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

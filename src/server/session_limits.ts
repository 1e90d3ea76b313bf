/**
 * How many 2025-era sessions an HTTP server holds and how long an idle one
 * lives, with their defaults, apart from the session code (sessions.ts) so
 * the command line can name the defaults without loading it on the stdio path.
 */

/** The bounds of the sessions kept for 2025-era clients that can be asked. */
export interface SessionLimits {
  /** Sessions held at once; past it, a client that could be asked is served without one. */
  maxSessions: number;
  /** A session with no request for this long is ended (its client re-initializes). */
  sessionTimeoutMs: number;
}

/**
 * A cap far above one team's editors (a session costs about 0.5 MB resident) and an
 * idle half hour: long enough for a person to come back to a review, short
 * enough that a closed laptop does not hold memory for a day.
 */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxSessions: 100,
  sessionTimeoutMs: 30 * 60_000,
};

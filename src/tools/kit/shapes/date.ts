/**
 * Dates as tools return them. Bitbucket sends milliseconds since the epoch,
 * which a model misreads; every date we return is an ISO 8601 UTC string,
 * made by {@link isoDate} alone.
 */
import { z } from "../../../deps/zod.ts";

/** A date: an ISO 8601 UTC string, published as `format: "date-time"` (a pattern would cost ~400 bytes). */
export const DateOut = z.string().meta({ format: "date-time" });

/**
 * Epoch milliseconds as ISO 8601 UTC: `2024-11-27T09:46:40Z`, with the
 * milliseconds only when they are not zero (`…:40.123Z`), so nothing is lost.
 */
export function isoDate(ms: number): string;
/** As {@link isoDate}, passing an absent date through. */
export function isoDate(ms: number | undefined): string | undefined;
export function isoDate(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().replace(".000Z", "Z");
}

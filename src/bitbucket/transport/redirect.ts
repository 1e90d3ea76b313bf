/**
 * The redirect rule, as a pure function: a redirect is followed only to the
 * base URL's origin and under its context path (so the token never goes to
 * another host, nor to another application on the same host), and at most
 * {@link MAX_REDIRECTS} times in a row.
 */
import type { Advice } from "./advice.ts";
import { basePath } from "./base_path.ts";

/** Redirects followed for one request; one more is an error (a redirect loop, most likely). */
export const MAX_REDIRECTS = 3;

/** Why a redirect is not followed; `advice`, when set, is the fix to append. */
export interface RedirectRefusal {
  kind: "invalid_response" | "refused";
  reason: string;
  advice?: Advice;
}

/**
 * Where a redirect from `from` with the given `Location` leads, when it may be
 * followed after `hop` redirects already followed; else why not.
 */
export function redirectTarget(
  base: URL,
  from: URL,
  location: string | null,
  hop: number,
): URL | RedirectRefusal {
  if (!location) {
    return { kind: "invalid_response", reason: "a redirect without a Location header" };
  }
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return { kind: "invalid_response", reason: "a redirect to something that is not a URL" };
  }
  const under = basePath(base) + "/";
  if (target.origin !== base.origin) {
    return {
      kind: "refused",
      reason:
        `Bitbucket redirected to another origin (${target.origin}), which is not followed so the token stays with ${base.origin}`,
      advice: "check_base_url",
    };
  }
  if (!target.pathname.startsWith(under)) {
    return {
      kind: "refused",
      reason:
        `Bitbucket redirected outside ${base.origin}${under} (to ${target.pathname}), which is not followed`,
      advice: "check_context_path",
    };
  }
  if (hop + 1 > MAX_REDIRECTS) {
    return {
      kind: "invalid_response",
      reason: `more than ${MAX_REDIRECTS} redirects in a row (a redirect loop?)`,
      advice: "check_base_url",
    };
  }
  return target;
}

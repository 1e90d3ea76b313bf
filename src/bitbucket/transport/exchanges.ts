/**
 * What one call sent to Bitbucket, as the audit log records it: each HTTP
 * exchange's method, path (relative to the REST root, with its query) and
 * status. Recorded at the `fetch` a per-call client uses, so retries and
 * redirects show as the requests they are; never a header or a body.
 */
import { restPrefix } from "./base_path.ts";

/** One request sent to Bitbucket; `status` is absent when no answer came. */
export interface Exchange {
  method: string;
  path: string;
  status?: number;
}

/** Wraps `inner` so each request made through it is passed to `observe` once answered (or failed). */
export function observingFetch(
  base: URL,
  inner: typeof fetch,
  observe: (exchange: Exchange) => void,
): typeof fetch {
  const prefix = restPrefix(base);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const path =
      (url.pathname.startsWith(prefix + "/") ? url.pathname.slice(prefix.length) : url.pathname) +
      url.search;
    try {
      const response = await inner(input, init);
      observe({ method, path, status: response.status });
      return response;
    } catch (error) {
      observe({ method, path });
      throw error;
    }
  };
}

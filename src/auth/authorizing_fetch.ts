/**
 * The signed-in session on the way to Bitbucket: a `fetch` that puts the
 * session's current access token in each request's `Authorization` header,
 * for the Bitbucket origin only, and after a 401 refreshes the token and
 * sends the request once more (a body already sent as a stream cannot be,
 * and is not). With no session, no request leaves: the answer is a 401 that
 * says so, which the client reports like any refused token.
 */
import type { SessionKeeper } from "./keeper.ts";

/** The message of the 401 answered when there is no session to send. */
export const NOT_SIGNED_IN = "Not signed in to Bitbucket: there is no signed-in session";

/** `inner`, with the session's token on every request to `origin`. */
export function authorizingFetch(
  keeper: SessionKeeper,
  origin: string,
  inner: typeof fetch,
): typeof fetch {
  const authorized = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== origin) {
      throw new Error(`refusing to send the signed-in session's token to ${url.origin}`);
    }
    const token = await keeper.token();
    if (token === undefined) {
      return Response.json({ errors: [{ message: NOT_SIGNED_IN }] }, { status: 401 });
    }
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${token}`);
    const response = await inner(input, { ...init, headers });
    if (response.status !== 401 || !replayable(init.body)) return response;
    const fresh = await keeper.refused(token);
    if (fresh === undefined || fresh === token) return response;
    await response.body?.cancel();
    headers.set("Authorization", `Bearer ${fresh}`);
    return await inner(input, { ...init, headers });
  };
  return authorized as typeof fetch;
}

/** Whether a request body can be sent a second time. */
function replayable(body: BodyInit | null | undefined): boolean {
  return !(body instanceof ReadableStream);
}

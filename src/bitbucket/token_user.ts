/**
 * Whose token a client sends, asked of Bitbucket: it has no "who am I"
 * endpoint for tokens, so one small read any authenticated user may make
 * stands in, and its answer names the user (`X-AUSERNAME`). `check`'s token
 * line and the HTTP mode's sign-in verifier both ask this way.
 */
import { z } from "../deps/zod.ts";
import { authenticatedUser } from "./caller.ts";
import type { BitbucketClient } from "./transport/client.ts";

/** The read a token's user is asked with: any authenticated user may make it, and it is small. */
export const WHO_AM_I_PATH = "/api/latest/profile/recent/repos";

/**
 * The user `client`'s token belongs to, or undefined when Bitbucket answered
 * as nobody (the token did not reach it); a refusal is thrown, as a
 * `BitbucketError`, like any other request's.
 */
export async function tokenUser(client: BitbucketClient): Promise<string | undefined> {
  const answer = await client.request({
    path: WHO_AM_I_PATH,
    query: { limit: 1 },
    schema: z.unknown(),
  });
  return authenticatedUser(answer.headers);
}

/**
 * Who the caller is, for the pull request tools that act as them (a review,
 * a participant filter): the username Bitbucket named on an answer, or an
 * error saying how to give the server a user's token.
 */
import { authenticatedUser } from "../../bitbucket/caller.ts";

/**
 * The username the token acts as, from an answer Bitbucket gave it (a GET the
 * tool makes anyway), so no separate request asks who the caller is.
 */
export function callerName(headers: Headers, request: string): string {
  const name = authenticatedUser(headers);
  if (!name) {
    throw new Error(
      `Cannot tell which user the token belongs to: Bitbucket named no user (X-AUSERNAME header) on ${request} (hint: the request was answered anonymously; set BITBUCKET_TOKEN to a user's token)`,
    );
  }
  return name;
}

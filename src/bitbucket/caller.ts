/**
 * Bitbucket names the authenticated user in the `X-AUSERNAME` header of every
 * authenticated answer: the one place that header is read.
 */

/** The username an answer was served for, or undefined when it was served anonymously. */
export function authenticatedUser(headers: Headers): string | undefined {
  return headers.get("X-AUSERNAME") || undefined;
}

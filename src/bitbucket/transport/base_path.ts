/**
 * Bitbucket may live under a context path (`https://example.com/bitbucket`);
 * its REST API is then under `<context path>/rest`. The one place a base URL's
 * path is trimmed, so every part of the program agrees on where Bitbucket is.
 */

/** The base URL's context path without trailing slashes: `""` at the root, else `/bitbucket`. */
export function basePath(base: URL): string {
  return base.pathname.replace(/\/+$/, "");
}

/** Where the REST API starts under a base URL: `/rest`, or `/bitbucket/rest`. */
export function restPrefix(base: URL): string {
  return `${basePath(base)}/rest`;
}

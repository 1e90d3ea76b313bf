/**
 * The random values of one sign-in: the PKCE verifier and its S256 challenge
 * (RFC 7636), and the `state` that ties Bitbucket's redirect to the sign-in
 * that asked for it. Only the challenge and the state leave the process
 * before the code comes back; the verifier goes to Bitbucket's token
 * endpoint alone.
 */

/** `bytes` random bytes as unpadded base64url: 32 give 43 characters, PKCE's shortest verifier. */
export function randomUrlSafe(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** base64url(SHA-256(verifier)): the S256 challenge of a PKCE verifier. */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** A PKCE pair and a state, fresh for one sign-in. */
export interface SignInSecrets {
  verifier: string;
  challenge: string;
  state: string;
}

/** Fresh values for one sign-in. */
export async function signInSecrets(): Promise<SignInSecrets> {
  const verifier = randomUrlSafe(32);
  return { verifier, challenge: await s256Challenge(verifier), state: randomUrlSafe(16) };
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/**
 * The redirect end of a sign-in: a listener on 127.0.0.1 (a port the system
 * picks, or a fixed one for an incoming link that wants its exact redirect
 * URL) that takes Bitbucket's redirect at `/callback`, checks its `state`,
 * and hands the code on. The browser is answered once the code has been
 * traded, with a page saying how it went; the page loads nothing.
 */

/** The path Bitbucket redirects to on the loopback listener. */
export const CALLBACK_PATH = "/callback";

/** What became of the code, for the page the browser shows. */
export interface PageOutcome {
  ok: boolean;
  /** One sentence for the person. */
  message: string;
}

/** What the listener is given. */
export interface LoopbackOptions {
  /** The state the authorization request carried: a redirect with another is refused. */
  state: string;
  /** A fixed port (the incoming link's redirect URL names it); absent or 0, the system picks one. */
  port?: number;
  /** Called with the code of the first redirect whose state matches; its outcome is the page. */
  onCode(code: string): Promise<PageOutcome>;
  /** Called when Bitbucket redirects with an error (the person denied access, …). */
  onError(error: string, description: string | undefined): void;
}

/** A listening redirect end. */
export interface Loopback {
  /** The redirect URL to send Bitbucket: `http://127.0.0.1:PORT/callback`. */
  redirectUri: string;
  close(): Promise<void>;
}

/** The loopback redirect URL for a port. */
export function loopbackRedirect(port: number): string {
  return `http://127.0.0.1:${port}${CALLBACK_PATH}`;
}

/** Starts listening; throws as `Deno.serve` does (no permission, the port taken). */
export function listenForRedirect(options: LoopbackOptions): Loopback {
  let handled = false;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen() {} },
    async (request) => {
      const url = new URL(request.url);
      if (url.pathname !== CALLBACK_PATH || request.method !== "GET") {
        return page(404, "Not found", "This address only takes Bitbucket's sign-in redirect.");
      }
      const q = url.searchParams;
      if (q.get("state") !== options.state) {
        return page(
          400,
          "Not this sign-in",
          "This page does not belong to the sign-in bitbucket-mcp started (its state does not match), so it was ignored. Close it.",
        );
      }
      if (handled) {
        return page(409, "Already done", "This sign-in was already handled. Close this tab.");
      }
      const error = q.get("error");
      const code = q.get("code");
      if (error !== null || !code) {
        handled = true;
        const description = q.get("error_description") ?? undefined;
        options.onError(error ?? "no_code", description);
        return page(
          400,
          "Not signed in",
          `Bitbucket did not sign you in (${error ?? "no code"}). Close this tab.`,
        );
      }
      handled = true;
      const outcome = await options.onCode(code);
      return page(
        outcome.ok ? 200 : 502,
        outcome.ok ? "Signed in" : "Not signed in",
        outcome.message,
      );
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    redirectUri: loopbackRedirect(port),
    async close() {
      await server.shutdown();
    },
  };
}

/** A small self-contained page; no script, nothing loaded. */
function page(status: number, title: string, message: string): Response {
  const escape = (s: string) =>
    s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${
    escape(title)
  } - bitbucket-mcp</title></head><body style="font-family:sans-serif;margin:3em"><h1>${
    escape(title)
  }</h1><p>${escape(message)}</p></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "Referrer-Policy": "no-referrer",
    },
  });
}

/**
 * Signing in from inside the client, for a stdio server that runs on a
 * person's signed-in session rather than a token: before each tool call, the
 * session must hold a usable token. When it does not (never signed in, or
 * the session ended), a client that opens URLs (elicitation in URL mode,
 * 2025-11-25 and later) is asked to show Bitbucket's sign-in page: on
 * 2026-07-28 the call answers `input_required` with the URL request, on
 * 2025-11-25 the SDK's shim sends `elicitation/create` with `mode: "url"`
 * (and this gate tells the client with `notifications/elicitation/complete`
 * once the sign-in is done). When the person accepts, the call waits for the
 * sign-in to finish and then goes on as it came; other clients get an error
 * naming the way to sign in outside the client.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  inputRequired,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  type ServerContext,
} from "../deps/mcp.ts";
import { type Registration, registrationOf } from "../policy/sdk_registration.ts";

/** The key of the sign-in's input request. */
export const SIGN_IN_KEY = "bitbucket_sign_in";

/** A sign-in the server can offer from inside the client (src/auth implements it). */
export interface SignInPort {
  /** The Bitbucket signed in to, in words (its URL). */
  readonly instance: string;
  /** What a person does instead when the client cannot open the page (the command line's words). */
  readonly fallbackHint: string;
  /** Whether a usable token is at hand, a stale one refreshed first. */
  ready(): Promise<boolean>;
  /** Starts a sign-in, or returns the one under way: the page to open, and when it is over. */
  begin(): Promise<{ url: string; done: Promise<void> }>;
  /** Waits for the sign-in under way to finish; throws why it did not (or that none is under way). */
  wait(signal: AbortSignal): Promise<void>;
}

/** Whether the client that sent this request opens URLs for the person (URL-mode elicitation). */
export function opensUrls(
  ctx: ServerContext,
  connection: ClientCapabilities | undefined,
): boolean {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const caps = envelope[PROTOCOL_VERSION_META_KEY] !== undefined
    ? envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined
    : connection;
  return caps?.elicitation?.url !== undefined;
}

/** `registrations`, each call first making sure the person is signed in (see the module header). */
export function signInGated(
  registrations: readonly Registration[],
  port: SignInPort,
): Registration[] {
  return registrations.map((r) =>
    registrationOf(r.name, r.config, async (args, ctx, connection, recorder) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, SIGN_IN_KEY);
      if (answer.kind === "elicit") {
        if (answer.action !== "accept") {
          return failure(
            `Cannot call ${r.name}: the person ${answer.action}d signing in to Bitbucket at ${port.instance}, so nothing was sent (hint: ${port.fallbackHint})`,
          );
        }
        try {
          await port.wait(ctx.mcpReq.signal);
        } catch (error) {
          return failure(
            `Cannot call ${r.name}: the sign-in to Bitbucket at ${port.instance} did not finish: ${
              messageOf(error)
            } (hint: call it again to get a new sign-in page, or ${port.fallbackHint})`,
          );
        }
        return await r.callback(args, ctx, connection, recorder);
      }
      if (await port.ready()) return await r.callback(args, ctx, connection, recorder);
      if (!opensUrls(ctx, connection())) {
        return failure(
          `Cannot call ${r.name}: not signed in to Bitbucket at ${port.instance}, and this client cannot open a sign-in page (URL elicitation, MCP 2025-11-25 and later); nothing was sent (hint: ${port.fallbackHint})`,
        );
      }
      let started;
      try {
        started = await port.begin();
      } catch (error) {
        return failure(
          `Cannot call ${r.name}: not signed in to Bitbucket at ${port.instance}, and a sign-in cannot start here: ${
            messageOf(error)
          } (hint: ${port.fallbackHint})`,
        );
      }
      const request = inputRequired.elicitUrl({
        message:
          `Sign in to Bitbucket at ${port.instance} so that this server can act as you (the page is Bitbucket's own)`,
        url: started.url,
      });
      const modern = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
        PROTOCOL_VERSION_META_KEY
      ] !== undefined;
      if (!modern) {
        // 2025-11-25 correlates a URL elicitation and its completion by an id of the server's.
        const elicitationId = crypto.randomUUID();
        (request.params as Record<string, unknown>).elicitationId = elicitationId;
        void started.done.then(() =>
          ctx.mcpReq.notify({
            method: "notifications/elicitation/complete",
            params: { elicitationId },
          })
        ).catch(() => {});
      }
      return inputRequired({ inputRequests: { [SIGN_IN_KEY]: request } });
    })
  );
}

function failure(text: string) {
  return { content: [{ type: "text" as const, text }], isError: true as const };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

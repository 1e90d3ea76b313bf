/**
 * Checking a pull request prompt's arguments, by the tools' own rules: loaded
 * when a prompt is first got, so listing prompts builds no schema.
 */
import { ProtocolError, ProtocolErrorCode } from "../deps/mcp.ts";
import { z } from "../deps/zod.ts";
import { idArg, segmentArg } from "../tools/kit/args.ts";
import type { PrArgs } from "./prompts.ts";

/** A prompt's pull request, as prompt arguments carry it: every value a string. */
const PrPromptArgs = z.object({
  project: segmentArg(),
  repo: segmentArg(),
  pr_id: z.string()
    .regex(/^\d{1,16}$/, { message: "must be a pull request id: digits, e.g. 42" })
    .transform(Number)
    .pipe(idArg()),
});

/** The pull request `args` name, or a ProtocolError (-32602) naming each bad argument. */
export function prPromptArguments(prompt: string, args: unknown): PrArgs {
  const result = PrPromptArgs.safeParse(args ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid arguments for prompt ${prompt}: ${issues.join("; ")}`,
  );
}

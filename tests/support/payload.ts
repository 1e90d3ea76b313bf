import assert from "node:assert/strict";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { isAppOnlyTool, isAppTool } from "../../src/tools/kit/apps.ts";
import type { Tool } from "../../src/tools/kit/define.ts";
import { toolArguments } from "../../testing/cases/mod.ts";

/** A tools/call result as any SDK generation (or a raw exchange) hands it back. */
export interface AnyCallResult {
  isError?: unknown;
  structuredContent?: unknown;
  content?: unknown;
}

/**
 * Calls one tool by name with arguments, through whichever client a test
 * drives; older SDKs type their results loosely, so the answer is checked at
 * run time.
 */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<unknown>;

/**
 * Asserts what every client must get from a tool: no error, a named plain
 * object as `structuredContent` (never an array), and a text block that
 * carries the same JSON (or, for document tools, the document).
 */
export function assertNamedPayload(tool: Tool, result: AnyCallResult): void {
  const where = `${tool.name}: ${JSON.stringify(result.content)?.slice(0, 300)}`;
  assert.notEqual(result.isError, true, where);
  const structured = result.structuredContent;
  assert.ok(
    typeof structured === "object" && structured !== null && !Array.isArray(structured),
    `${tool.name}: structuredContent must be a plain object`,
  );
  assert.ok(Object.keys(structured).length > 0, `${tool.name}: the payload is named`);
  const content = result.content as { type: string; text?: string }[] | undefined;
  const text = content?.find((c) => c.type === "text")?.text;
  assert.equal(typeof text, "string", `${tool.name}: a text block`);
  if (tool.hasDocumentText) {
    assert.ok(text!.length > 0, `${tool.name}: the document text is not empty`);
  } else {
    assert.deepEqual(JSON.parse(text!), structured, `${tool.name}: text carries the same JSON`);
  }
}

/**
 * Calls every tool of the catalogue with its contract-table arguments and
 * checks each answer with {@link assertNamedPayload}: it fails naming the
 * first tool without arguments or without a good answer. The clients calling
 * it declare no MCP Apps, so a write only a view makes (the form's submit)
 * must instead refuse, saying so. The server must stand before a fixture
 * holding every domain's routes (`ALL_ROUTES`).
 */
export async function callEveryTool(call: CallTool): Promise<void> {
  for (const tool of CATALOGUE) {
    const entry = toolArguments[tool.name];
    assert.ok(entry, `no toolArguments entry for ${tool.name}`);
    const result = (await call(tool.name, entry.args)) as AnyCallResult;
    if (isAppOnlyTool(tool.config._meta) && tool.access.level !== "read-only") {
      assert.equal(result.isError, true, `${tool.name}: refused without a view`);
      assert.match(JSON.stringify(result.content), /only a view/, tool.name);
    } else {
      assertNamedPayload(tool, result);
    }
  }
}

/**
 * The names every client must see in tools/list when all tools are selected,
 * in order: all but the MCP Apps view tools, listed only to a client that
 * declares the extension (none of these does).
 */
export const ALL_TOOL_NAMES: readonly string[] = CATALOGUE
  .filter((t) => !isAppTool(t.config._meta))
  .map((t) => t.name);

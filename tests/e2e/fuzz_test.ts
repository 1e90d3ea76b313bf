import assert from "node:assert/strict";
import { ProtocolError } from "@modelcontextprotocol/client";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { MAX_FILE_BYTES } from "../../src/tools/source/commit_file.ts";
import { ALL_ROUTES, toolArguments } from "../../testing/cases/mod.ts";
import { APPLICATION_PROPERTIES } from "../../testing/cases/server_version.ts";
import { connect, firstText } from "../../testing/harness.ts";
import {
  HOSTILE_VALUES,
  randomNumber,
  randomString,
  randomValue,
} from "../support/hostile_values.ts";
import { hasDotSegment, ownedPathPatterns } from "../support/owned_paths.ts";
import { Prng } from "../../testing/prng.ts";

/** Fixed, so every run throws the same values; change it to explore further. */
const SEED = 0x5eed_0006;
/** Random values per argument, besides the fixed corpus. */
const RANDOM_PER_ARGUMENT = 12;
/** The longest text argument any tool accepts. */
const MAX_TEXT = 65_536;

type Schema = { type?: string; items?: Schema };

const REPO = "/api/latest/projects/PROJ/repos/web";
/**
 * Endpoints a tool reaches only with other arguments than its contract
 * entry's, each with the reason; `{name}` stands for that contract argument.
 */
const ALSO_OWNS: Record<string, string[]> = {
  resolve_ref: [`${REPO}/tags`], // a name that is no branch is looked up among the tags
  list_pr_comments: [`${REPO}/pull-requests/{pr_id}/comments`], // with path: one file's comments
  list_code_insights_reports: [`${REPO}/commits/{commit_id}`], // an abbreviated id is resolved first
  set_build_status: [`${REPO}/commits/{commit_id}`], // an abbreviated id is resolved first
  list_code_insights_annotations: [`${REPO}/commits/{commit_id}`], // an abbreviated id is resolved first
  // an abbreviated id is resolved first; a cut diff names what it left out from the changes
  get_commit_diff: [`${REPO}/commits/{commit_id}`, `${REPO}/commits/{commit_id}/changes`],
  list_commit_comments: [`${REPO}/commits/{commit_id}`], // an abbreviated id is resolved first
  add_commit_comment: [`${REPO}/commits/{commit_id}`], // an abbreviated id is resolved first
  get_compare_diff: [`${REPO}/compare/changes`], // a cut diff names what it left out from the changes
  get_pr_diff: [`${REPO}/pull-requests/{pr_id}/changes`], // a cut diff names what it left out
  // with nothing to publish, the status alone: the pull request, its participant, maybe the user search
  submit_pr_review: [
    `${REPO}/pull-requests/{pr_id}`,
    "/api/latest/users",
  ],
  get_file_content: [`${REPO}/browse/{path}`], // a file cut at max_bytes: its whole size
  list_last_modified: [`${REPO}/last-modified`], // without path: the repository root
  commit_file: [`${REPO}/default-branch`], // without --yolo: is the branch the default one?
};
/**
 * Text arguments allowed to be longer than {@link MAX_TEXT}, each with its own
 * limit: a file's whole content, bounded in bytes (its schema says how).
 */
const LONGER_TEXT: Record<string, number> = {
  "commit_file.content": MAX_FILE_BYTES,
};
/** The values one argument is called with: the fixed corpus, then seeded random ones fitting its type and not. */
function valuesFor(schema: Schema | undefined, rng: Prng): unknown[] {
  const random = Array.from({ length: RANDOM_PER_ARGUMENT }, (_, i) => {
    if (i % 3 === 0 && schema?.type === "string") return randomString(rng);
    if (i % 3 === 0 && schema?.type === "integer") return randomNumber(rng);
    return randomValue(rng);
  });
  return [...HOSTILE_VALUES, ...random];
}

/** True when the value carries text longer than the argument may be (`max`: any text argument's limit). */
function overLong(value: unknown, max = MAX_TEXT): boolean {
  if (typeof value === "string") return value.length > max;
  return Array.isArray(value) && value.some((item) => overLong(item, max));
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...(${text.length})` : text;
}

/**
 * Every tool, every argument (from `tools/list`), one argument mutated at a
 * time from the tool's contract arguments: the server never crashes, never
 * requests anything outside the endpoints the tool owns, refuses invalid
 * input naming the argument, and refuses over-long text before any request.
 */
Deno.test("fuzz: hostile arguments never crash the server or reach another endpoint", async (t) => {
  // Every domain's routes: one server is fuzzed through every tool in turn.
  // A client drawing MCP Apps views, so that the view tools are listed and fuzzed too.
  await using h = await connect({ routes: ALL_ROUTES, selection: { yolo: true }, apps: true });
  const { tools } = await h.client.listTools();
  const rng = new Prng(SEED);
  let total = 0;
  /** How the server answered each case: a tool result, a refusal as a result, a JSON-RPC error. */
  const answers = { result: 0, refusal: 0, jsonRpcError: 0 };
  /** Cases that got no answer from the server (a closed channel, a timeout): none may. */
  const unanswered: string[] = [];
  for (const tool of CATALOGUE) {
    const contract = toolArguments[tool.name];
    assert.ok(contract, `${tool.name} has a contract entry`);
    const owned = ownedPathPatterns({
      args: contract.args,
      requests: [
        // Any tool may read the server's version, once per server, before a gated feature.
        { method: "GET" as const, path: APPLICATION_PROPERTIES },
        ...contract.requests,
        ...(ALSO_OWNS[tool.name] ?? []).map((path) => ({
          method: "GET" as const,
          path: path.replace(/\{(\w+)\}/g, (_, arg: string) => String(contract.args[arg])),
        })),
      ],
    });
    const schema = tools.find((e) => e.name === tool.name)?.inputSchema as {
      properties: Record<string, Schema>;
    };
    const problems: string[] = [];
    let cases = 0;
    for (const [name, property] of Object.entries(schema.properties)) {
      for (const value of valuesFor(property, rng)) {
        cases++;
        const args = { ...contract.args, [name]: value };
        const before = h.fixture.requests.length;
        let text: string;
        let isError: boolean;
        try {
          const result = await h.client.callTool({ name: tool.name, arguments: args });
          isError = result.isError === true;
          text = isError ? firstText(result) : "";
          answers[isError ? "refusal" : "result"]++;
        } catch (error) {
          // A protocol-level refusal is acceptable too, as long as it names the argument.
          isError = true;
          text = error instanceof Error ? error.message : String(error);
          if (error instanceof ProtocolError) answers.jsonRpcError++;
          else unanswered.push(`${tool.name} ${name}=${describe(value)}: ${text.slice(0, 120)}`);
        }
        const made = h.fixture.requests.slice(before);
        const where = `${name}=${describe(value)}`;
        for (const request of made) {
          if (!owned.some((pattern) => pattern.test(request.path))) {
            problems.push(
              `${where}: requested ${request.method} ${request.path}, not its endpoint`,
            );
          }
          if (hasDotSegment(request.path)) {
            problems.push(`${where}: requested a path with a dot segment: ${request.path}`);
          }
        }
        if (isError && made.length === 0 && !new RegExp(`\\b${name}\\b`).test(text)) {
          problems.push(`${where}: refused without naming ${name}: ${text.slice(0, 200)}`);
        }
        if (overLong(value, LONGER_TEXT[`${tool.name}.${name}`]) && (made.length > 0 || !isError)) {
          problems.push(`${where}: over-long text was not refused before any request`);
        }
      }
    }
    total += cases;
    await t.step(`${tool.name}: ${cases} cases`, () => {
      assert.deepEqual(problems.slice(0, 15), [], `${problems.length} problem(s)`);
    });
  }
  const after = await h.client.listTools();
  assert.equal(after.tools.length, tools.length, "the server still serves");
  const answered =
    `${answers.result} results, ${answers.refusal} refusals, ${answers.jsonRpcError} JSON-RPC errors`;
  await t.step(`${total} cases in all, each answered by the server: ${answered}`, () => {
    assert.deepEqual(unanswered.slice(0, 15), [], `${unanswered.length} case(s) got no answer`);
  });
});

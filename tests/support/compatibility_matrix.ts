/**
 * What each protocol revision receives, as the compatibility matrix test
 * checks it cell by cell and as docs/compatibility.md shows it (the block
 * between `<!-- matrix:start -->` and `<!-- matrix:end -->`, rendered by
 * {@link renderMatrix}, laid out as `deno fmt` lays a table out; `deno task
 * generate` rewrites it).
 */
import { markdownTable } from "../../scripts/docs.ts";

/** One revision: the client that speaks it, and what it gets. */
export interface MatrixRow {
  revision: string;
  /** The SDK release the test drives, and why that one. */
  sdk: string;
  why: string;
  transports: readonly ("in memory" | "HTTP")[];
  /** The content block types a `prompts/get` about a pull request answers. */
  promptContent: readonly string[];
  /** Whether `tools/call` answers carry `structuredContent` (the text block carries the same JSON). */
  structuredContent: boolean;
  /** How an unsafe write without `--yolo` reaches the person. */
  unsafeWrite: "refusal" | "elicitation/create" | "input_required";
}

/** Every revision the server answers, oldest first. */
export const MATRIX: readonly MatrixRow[] = [
  {
    revision: "2024-11-05",
    sdk: "@modelcontextprotocol/sdk 1.9.0",
    why: "its latest revision is 2024-11-05 (1.10.2 is the last such); it has no Streamable HTTP",
    transports: ["in memory"],
    promptContent: ["text", "text"],
    structuredContent: true,
    unsafeWrite: "refusal",
  },
  {
    revision: "2025-03-26",
    sdk: "@modelcontextprotocol/sdk 1.12.1",
    why: "its latest revision is 2025-03-26, and the project already tests with it",
    transports: ["in memory", "HTTP"],
    promptContent: ["text", "text"],
    structuredContent: true,
    unsafeWrite: "refusal",
  },
  {
    revision: "2025-06-18",
    sdk: "@modelcontextprotocol/sdk 1.22.0",
    why: "its latest revision is 2025-06-18 (so is 1.24.x)",
    transports: ["in memory", "HTTP"],
    promptContent: ["text", "resource_link"],
    structuredContent: true,
    unsafeWrite: "elicitation/create",
  },
  {
    revision: "2025-11-25",
    sdk: "@modelcontextprotocol/sdk 1.32.2",
    why: "the newest v1 release, latest revision 2025-11-25",
    transports: ["in memory", "HTTP"],
    promptContent: ["text", "resource_link"],
    structuredContent: true,
    unsafeWrite: "elicitation/create",
  },
  {
    revision: "2026-07-28",
    sdk: "@modelcontextprotocol/client 2.4.0",
    why: "the v2 client, pinned to 2026-07-28",
    transports: ["in memory", "HTTP"],
    promptContent: ["text", "resource_link"],
    structuredContent: true,
    unsafeWrite: "input_required",
  },
];

/** How each way of reaching the person reads in the doc. */
const UNSAFE_WORDS: Record<MatrixRow["unsafeWrite"], string> = {
  refusal: "refused (`isError` result naming `--yolo` and `--withhold-unsafe`)",
  "elicitation/create": "asked through `elicitation/create`",
  input_required: "asked through `input_required`, then retried",
};

/** The matrix as the Markdown table docs/compatibility.md holds. */
export function renderMatrix(): string {
  return markdownTable(
    [
      "revision",
      "client tested",
      "transports",
      "a pull request prompt's content",
      "`structuredContent`",
      "an unsafe write without `--yolo`",
    ],
    MATRIX.map((r) => [
      r.revision,
      `${r.sdk}: ${r.why}`,
      r.transports.join(", "),
      r.promptContent.map((t) => `\`${t}\``).join(", "),
      r.structuredContent ? "yes" : "no",
      UNSAFE_WORDS[r.unsafeWrite],
    ]),
  );
}

/** `doc` with its matrix block holding `table`; throws unless the block occurs exactly once. */
export function withMatrix(doc: string, table: string): string {
  const start = "<!-- matrix:start -->";
  const end = "<!-- matrix:end -->";
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from || doc.indexOf(start, from + 1) >= 0) {
    throw new Error(`Cannot write the matrix: docs/compatibility.md needs one ${start} … ${end}`);
  }
  return `${doc.slice(0, from + start.length)}\n\n${table}\n\n${doc.slice(to)}`;
}

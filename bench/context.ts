/** The catalogue's cost in model context: bytes per tool as a model API receives them, and the whole `tools/list`. */
import { TOOLSETS } from "../src/tools/catalogue.ts";
import { connect } from "../testing/harness.ts";
import { parseFlags } from "../src/cli/flags.ts";
import { ALL_SETS, type ToolSelection } from "../src/policy/selection.ts";

/** Bytes the catalogue costs: what a model sees, and the whole `tools/list` result. */
export interface ContextFigures {
  tools: number;
  modelVisibleBytes: number;
  modelVisiblePerTool: number;
  /** What a model API receives per tool, `{name, description, input_schema}`: the budget's measure. */
  modelApiPerTool: number;
  toolsListBytes: number;
  /** The floor: model-visible bytes per tool with every description (tool and argument) removed. */
  structurePerTool: number;
  /** The default set (what no flags list), as a client drawing views is listed it. */
  defaultTools: number;
  defaultCatalogueModelVisibleBytes: number;
  /** What a model API receives of the default set, `{name, description, input_schema}`, in all. */
  defaultModelApiBytes: number;
  perTool: Record<string, { modelVisible: number; full: number }>;
  /** Per toolset with default flags: tools exposed, model-visible bytes, whole tools/list bytes. */
  perToolset: Record<string, { tools: number; modelVisible: number; toolsList: number }>;
}

/** The UTF-8 length of a value's JSON. */
export const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** The model-visible part of a tool: name, title, description, input schema, annotations. */
export function modelVisible(tool: Record<string, unknown>): unknown {
  const { name, title, description, inputSchema, annotations } = tool;
  return { name, title, description, inputSchema, annotations };
}

/** A copy of a JSON value without any `description` keys: what the schema structure alone costs. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([k]) => k !== "description").map((
      [k, v],
    ) => [k, withoutDescriptions(v)]),
  );
}

/** What a model API receives of one listed tool. */
const modelApi = (t: Record<string, unknown>) =>
  bytes({ name: t.name, description: t.description, input_schema: t.inputSchema });

/** Measures the full catalogue (`--toolsets all`) and the default one (no flags at all). */
export async function measureContext(): Promise<ContextFigures> {
  const all = await listed({ yolo: true, toolsets: [ALL_SETS] });
  const defaults = await listed(parseFlags([]));
  const perTool: ContextFigures["perTool"] = {};
  for (const tool of all.tools) {
    perTool[tool.name as string] = { modelVisible: bytes(modelVisible(tool)), full: bytes(tool) };
  }
  const perToolset: ContextFigures["perToolset"] = {};
  for (const set of TOOLSETS) {
    const listing = await listed({ toolsets: [set.name] });
    perToolset[set.name] = {
      tools: listing.tools.length,
      modelVisible: listing.tools.reduce((n, t) => n + bytes(modelVisible(t)), 0),
      toolsList: bytes(listing),
    };
  }
  const modelVisibleBytes = all.tools.reduce((n, t) => n + bytes(modelVisible(t)), 0);
  return {
    tools: all.tools.length,
    modelVisibleBytes,
    modelVisiblePerTool: Math.round(modelVisibleBytes / all.tools.length),
    modelApiPerTool: Math.round(all.tools.reduce((n, t) => n + modelApi(t), 0) / all.tools.length),
    toolsListBytes: bytes(all),
    structurePerTool: Math.round(
      all.tools.reduce((n, t) => n + bytes(withoutDescriptions(modelVisible(t))), 0) /
        all.tools.length,
    ),
    defaultTools: defaults.tools.length,
    defaultCatalogueModelVisibleBytes: defaults.tools.reduce(
      (n, t) => n + bytes(modelVisible(t)),
      0,
    ),
    defaultModelApiBytes: defaults.tools.reduce((n, t) => n + modelApi(t), 0),
    perTool,
    perToolset,
  };
}

/**
 * The tools a model is given, as a client that draws MCP Apps views lists
 * them (so `show` counts): a tool only the page may call (`visibility:
 * ["app"]`) is kept from the model by the host, as the extension requires.
 */
async function listed(selection: Partial<ToolSelection> & { yolo?: boolean }) {
  await using h = await connect({ selection, era: "legacy", apps: true });
  const result = await h.client.listTools() as unknown as { tools: Record<string, unknown>[] };
  return { ...result, tools: result.tools.filter((tool) => !appOnly(tool)) };
}

/** A tool whose MCP Apps visibility leaves out the model. */
export function appOnly(tool: Record<string, unknown>): boolean {
  const ui = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  return Array.isArray(ui?.visibility) && !ui.visibility.includes("model");
}

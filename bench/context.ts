import { connect } from "../tests/support/harness.ts";

/** Bytes the catalogue costs: what a model sees, and the whole `tools/list` result. */
export interface ContextFigures {
  tools: number;
  modelVisibleBytes: number;
  modelVisiblePerTool: number;
  toolsListBytes: number;
  defaultCatalogueModelVisibleBytes: number;
  perTool: Record<string, { modelVisible: number; full: number }>;
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** The model-visible part of a tool: name, title, description, input schema, annotations. */
function modelVisible(tool: Record<string, unknown>): unknown {
  const { name, title, description, inputSchema, annotations } = tool;
  return { name, title, description, inputSchema, annotations };
}

/** Measures the full catalogue (all tools) and the default one (no --yolo). */
export async function measureContext(): Promise<ContextFigures> {
  const all = await listed({ yolo: true });
  const defaults = await listed({});
  const perTool: ContextFigures["perTool"] = {};
  for (const tool of all.tools) {
    perTool[tool.name as string] = { modelVisible: bytes(modelVisible(tool)), full: bytes(tool) };
  }
  const modelVisibleBytes = all.tools.reduce((n, t) => n + bytes(modelVisible(t)), 0);
  return {
    tools: all.tools.length,
    modelVisibleBytes,
    modelVisiblePerTool: Math.round(modelVisibleBytes / all.tools.length),
    toolsListBytes: bytes(all),
    defaultCatalogueModelVisibleBytes: defaults.tools.reduce(
      (n, t) => n + bytes(modelVisible(t)),
      0,
    ),
    perTool,
  };
}

async function listed(selection: { yolo?: boolean }) {
  await using h = await connect({ selection, era: "legacy" });
  const result = await h.client.listTools();
  return result as unknown as { tools: Record<string, unknown>[] };
}

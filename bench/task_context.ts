/**
 * Context per task: the bytes a model reads to review the demo's pull request
 * #42 through the real server (spawned as a user runs it, default flags): the
 * catalogue once, then each result of the demo's review script, step by step,
 * so that growth in any one tool's result shows.
 */
import { ALL_ROUTES } from "../testing/cases/mod.ts";
import { startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { SCRIPT } from "../testing/demo_script.ts";
import { bytes, modelVisible } from "./context.ts";
import { ServerProcess } from "./server_process.ts";

/** One step of the review: the text block the model reads, and the running total. */
export interface TaskStep {
  tool: string;
  intent: string;
  /** The result's text block, in bytes: what a client hands the model. */
  textBytes: number;
  /** The whole `tools/call` result (text and structuredContent), in bytes. */
  resultBytes: number;
  /** Catalogue plus every text block so far. */
  cumulativeBytes: number;
}

/** The whole task's context. */
export interface TaskContextFigures {
  /** The model-visible catalogue of the default selection, read once. */
  catalogueBytes: number;
  tools: number;
  steps: TaskStep[];
  totalBytes: number;
}

/** Plays the demo's review script against a spawned server and measures what the model reads. */
export async function measureTaskContext(): Promise<TaskContextFigures> {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const server = new ServerProcess(fixture.url);
  try {
    await server.initialize();
    const listed = await server.request("tools/list");
    const tools = (listed.result as { tools: Record<string, unknown>[] }).tools;
    const catalogueBytes = tools.reduce((n, t) => n + bytes(modelVisible(t)), 0);
    const seen: Record<string, Record<string, unknown>> = {};
    const steps: TaskStep[] = [];
    let cumulativeBytes = catalogueBytes;
    for (const step of SCRIPT) {
      const answer = await server.request("tools/call", {
        name: step.tool,
        arguments: step.args(seen),
      });
      const result = answer.result as {
        isError?: boolean;
        content?: { type: string; text?: string }[];
        structuredContent?: Record<string, unknown>;
      };
      if (!result || result.isError || !result.structuredContent) {
        throw new Error(`${step.tool} failed: ${JSON.stringify(answer).slice(0, 300)}`);
      }
      seen[step.tool] = result.structuredContent;
      const text = result.content?.find((c) => c.type === "text")?.text ?? "";
      const textBytes = new TextEncoder().encode(text).length;
      cumulativeBytes += textBytes;
      steps.push({
        tool: step.tool,
        intent: step.intent,
        textBytes,
        resultBytes: bytes(result),
        cumulativeBytes,
      });
    }
    return { catalogueBytes, tools: tools.length, steps, totalBytes: cumulativeBytes };
  } finally {
    await server.close();
    await fixture.close();
  }
}

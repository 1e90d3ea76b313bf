/**
 * The `views` toolset: MCP Apps views of what the data tools found, drawn by
 * one page beside the chat, and the page's own tools. Listed only to clients
 * that declare the extension.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import { refreshView, show } from "./show.ts";
import { submitPrForm } from "./submit_form.ts";

/** The `views` toolset. */
export const VIEWS: Toolset = defineToolset({
  name: "views",
  description: "MCP Apps views: pull requests, diffs, threads, forms",
  tools: [show, refreshView, submitPrForm],
});

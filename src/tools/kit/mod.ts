/**
 * The kit in one import: everything a tool file uses to declare a tool
 * (`defineTool`, `defineListTool`, access, reach), its arguments and limits,
 * and the output shapes with their mappers. A tool file imports it in one
 * line: `import { … } from "../kit/mod.ts";`.
 */
export * from "./define.ts";
export * from "./list_tool.ts";
export * from "./toolset.ts";
export * from "./reach.ts";
export * from "./default_set.ts";
export * from "./args.ts";
export * from "./apps.ts";
export * from "./shapes/build.ts";
export * from "./shapes/comment.ts";
export * from "./shapes/commit.ts";
export * from "./shapes/date.ts";
export * from "./shapes/diff.ts";
export * from "./shapes/file.ts";
export * from "./shapes/hidden.ts";
export * from "./shapes/page.ts";
export * from "./shapes/pull_request.ts";
export * from "./shapes/ref.ts";
export * from "./shapes/repository.ts";
export * from "./shapes/user.ts";
// The one name two shapes share: a diff's by its own name, a file's renamed.
export { withHiddenCharacters } from "./shapes/diff.ts";
export { withHiddenCharacters as withHiddenFileCharacters } from "./shapes/file.ts";

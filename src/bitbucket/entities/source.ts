import { z } from "zod";

/** One entry of the files listing: a path relative to the directory listed. */
export const ListedFile = z.string();

/** The answer of `browse/{path}?size=true`: the file's size in bytes. */
export const FileSize = z.object({ size: z.number().int().min(0) });

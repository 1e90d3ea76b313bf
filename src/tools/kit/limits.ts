/**
 * The limits every argument and document keeps, with no schema attached, so
 * modules on the start-up path (the resource templates) can name them
 * without building the argument schemas.
 */

/** The longest project key, repository slug, username or name filter. */
export const MAX_SEGMENT = 256;
/** The longest ref, branch or tag name, and the longest substring filter. */
export const MAX_REF = 1024;
/** The longest file path. */
export const MAX_PATH = 4096;
/** The longest comment, description or message. */
export const MAX_TEXT = 32_768;
/** The longest title. */
export const MAX_TITLE = 255;
/** The bytes of a document (a diff, a file) returned when the caller does not say. */
export const DEFAULT_DOCUMENT_BYTES = 100_000;
/** The most bytes of a document a caller may ask for. */
export const MAX_DOCUMENT_BYTES = 1_000_000;

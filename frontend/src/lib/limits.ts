/**
 * The limits the server enforces, in one place: a form's maxLength, its counter and its own check
 * read them from here, never from a number of their own. Each has the name of its constant in
 * crates/domain, and `limits.test.ts` checks that it has the same value there.
 */

/** A GIF's title and description, in characters. */
export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 500;

/** The text in a GIF ("Text in this GIF"), in characters. */
export const CAPTION_TEXT_MAX = 500;

/** A collection's name, in characters (its description is a GIF's: DESCRIPTION_MAX). */
export const COLLECTION_NAME_MAX = 80;

/** Usernames: 3 to 20 characters at registration, up to 50 when changed in the settings. */
export const USERNAME_MIN = 3;
export const REGISTER_USERNAME_MAX = 20;
export const USERNAME_MAX = 50;

/** Passwords: at least 6 characters, at most 72 bytes in UTF-8 (all that bcrypt reads). */
export const PASSWORD_MIN_CHARS = 6;
export const PASSWORD_MAX_BYTES = 72;

/** The name of an API key, and an integration's name and secret. */
export const API_KEY_NAME_MAX = 50;
export const INTEGRATION_NAME_MAX = 50;
export const INTEGRATION_SECRET_MAX = 200;

/**
 * The upload size of a server left at its default (spec §9: `GIFSHELF_MAX_UPLOAD_MB`, 10). The
 * server's own value (`maxUploadBytes` of `GET /api/config`) is used once it is known.
 */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

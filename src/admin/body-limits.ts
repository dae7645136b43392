/** Bytes an admin body may have; a state import may have more (see STATE_BODY_BYTES). */
export const ADMIN_BODY_BYTES = 1024 * 1024;
/** A state import carries every inserted record: 64 MB is about 180,000 inserted calls. */
export const STATE_BODY_BYTES = 64 * 1024 * 1024;

/** macOS names Cmd where others name Ctrl; shortcuts and their labels follow. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** Linux has a desktop-wide selection (X's PRIMARY) Flint reads; macOS and Windows do not. */
export const isLinux = typeof navigator !== 'undefined' && /Linux/.test(navigator.userAgent) && !/Android/.test(navigator.userAgent);

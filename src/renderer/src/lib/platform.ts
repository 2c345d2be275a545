/** macOS names Cmd where others name Ctrl; shortcuts and their labels follow. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

/**
 * Reading what a provider's server sends, for every provider.
 *
 * The openai SDK's declarations name the fields, so a misspelt field does not compile;
 * they do not make the server send them. A broken or hostile server may leave any field
 * out or put anything in it, so JSON from the server is typed `Unchecked<T>`: each value
 * is read through `?.` and its type checked where it is used.
 */

/**
 * Server JSON in the shape of `T`, unchecked: every field may be missing; a field the SDK
 * types as a primitive is `unknown`. (An object may also arrive as a number or a string:
 * reading a field of one gives undefined, which reads as missing.)
 */
export type Unchecked<T> = T extends null | undefined ? T : T extends object ? UncheckedFields<T> | null : unknown;
/** The fields of an `Unchecked` object. */
export type UncheckedFields<T> = { readonly [K in keyof T]?: Unchecked<T[K]> };

/** A string from server JSON, or undefined for anything else. */
export function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A token count from server JSON, or undefined for anything that is not one.
 *
 * JSON can spell infinity (`1e999` parses to it), so a number alone is not enough.
 */
export function tokenCountOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

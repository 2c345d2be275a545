/** Whether two byte arrays hold the same bytes, compared in place: never copied first (a file may be megabytes, compared on every write). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

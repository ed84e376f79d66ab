/** Sets every header of `values` on `headers`, replacing what was there. */
export function setAll(headers: Headers, values: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(values)) headers.set(name, value);
}

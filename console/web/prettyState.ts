/** A state's JSON text indented for reading; a preview cut short (not JSON) as it is. */
export function prettyState(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // A preview cut short is not JSON: show it as it is.
    return text;
  }
}

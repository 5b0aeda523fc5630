/**
 * The next version of a policy: its trailing number plus one, keeping its width (`"3"` → `"4"`,
 * `"2024.07"` → `"2024.08"`, `"v9"` → `"v10"`); a version without a trailing number gets `.1`
 * appended (`"beta"` → `"beta.1"`).
 */
export function bumpVersion(version: string): string {
  const match = /^(.*?)(\d+)$/.exec(version);
  if (match === null) return `${version}.1`;
  const [, prefix = "", digits = "0"] = match;
  const next = (BigInt(digits) + 1n).toString();
  return `${prefix}${next.padStart(digits.length, "0")}`;
}

import { SettingValueError } from "./SettingValueError.js";

/** What {@link parseSetting} needs of a setting: its schema. */
interface Parsable<T> {
  readonly schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };
  };
}

/**
 * Parses one given value with a setting's schema.
 * @throws SettingValueError whose message says what is wrong (without the setting's name: the
 *   reader knows under which name it was given).
 */
export function parseSetting<T>(setting: Parsable<T>, value: unknown): T {
  const parsed = setting.schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new SettingValueError(parsed.error.issues.map((issue) => issue.message).join("; "));
}

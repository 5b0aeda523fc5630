/** A given value of a setting is not valid; the message says what is wrong, without the setting's name. */
export class SettingValueError extends Error {
  override name = "SettingValueError";
}

/**
 * Times as the owner's commands (`--since`, `--until`) and the review console's query parameters
 * (`?since=`) take them, parsed in one place and compared as instants. The outcomes table keeps
 * times as ISO-8601 text and DynamoDB compares them as text; that holds only for four-digit years,
 * so a time outside {@link INSTANT_RANGE} is refused here (a year `+275760` written by
 * `toISOString()` would sort before `2026` and select everything).
 */

/** The instants a time may name: years 1970 to 9999, in UTC. */
export const INSTANT_RANGE = {
  earliest: "1970-01-01T00:00:00.000Z",
  latest: "9999-12-31T23:59:59.999Z",
} as const;

/** How {@link INSTANT_RANGE} reads in a message. */
export const INSTANT_RANGE_TEXT = "from 1970-01-01 to 9999-12-31 (UTC)";

/** An example of a time that {@link parseInstant} takes, for messages. */
export const INSTANT_EXAMPLE = "2026-12-03T10:00:00Z";

/** A time parsed by {@link parseInstant}. */
export interface Instant {
  /** Milliseconds since the epoch. */
  ms: number;
  /** The instant as `toISOString()` writes it (UTC, four-digit year): the text the table compares. */
  iso: string;
}

/** A text that is not a time {@link parseInstant} takes; `reason` says what to give instead. */
export class InstantTextError extends Error {
  override name = "InstantTextError";
  constructor(
    /** The text as given. */
    readonly text: string,
    /** What is wrong with it and what to give, for a person. */
    readonly reason: string,
  ) {
    super(`"${text}" ${reason}`);
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * Parses an ISO-8601 date (`2026-12-03`, midnight UTC) or date-time with a zone
 * (`2026-12-03T10:00:00Z`, `2026-12-03T11:00+01:00`, fractions of a second allowed) as an instant
 * within {@link INSTANT_RANGE}. Nothing else is a time here: no other format `Date.parse` would
 * guess at, no date-time without a zone (whose meaning would depend on the machine's), no day that
 * does not exist (`2026-02-30`).
 *
 * @throws InstantTextError naming what is wrong: not ISO-8601, no zone, no such day or hour, or
 *   outside the range.
 * @example parseInstant("2026-12-03T11:00:00+01:00").iso // "2026-12-03T10:00:00.000Z"
 */
export function parseInstant(text: string): Instant {
  const date = DATE.exec(text);
  const dateTime = date === null ? DATE_TIME.exec(text) : null;
  const parts = date ?? dateTime;
  if (parts === null) {
    const year = /^[+-]\d{6}-/.test(text) || /^\d{5,}-/.test(text);
    throw new InstantTextError(
      text,
      year
        ? `is outside the times taken, ${INSTANT_RANGE_TEXT}: give a year of four digits`
        : `is not an ISO-8601 time: give a date (2026-12-03) or a date and time with its zone (${INSTANT_EXAMPLE})`,
    );
  }
  if (dateTime !== null && dateTime[8] === undefined && dateTime[9] === undefined)
    throw new InstantTextError(
      text,
      `has no zone: add Z for UTC or an offset such as +01:00 (${INSTANT_EXAMPLE})`,
    );
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const [hour, minute, second] = [Number(parts[4] ?? 0), Number(parts[5] ?? 0), Number(parts[6] ?? 0)];
  if (year < 1970) throw new InstantTextError(text, `is outside the times taken, ${INSTANT_RANGE_TEXT}`);
  const milli = Math.floor(Number(`0.${parts[7] ?? "0"}`) * 1000);
  const local = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    throw new InstantTextError(text, "names no such day or time of day");
  const sign = dateTime?.[9] === "-" ? -1 : 1;
  const offsetHours = Number(dateTime?.[10] ?? 0);
  const offsetMinutes = Number(dateTime?.[11] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) throw new InstantTextError(text, "has no such zone offset");
  const ms = local - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  if (!(ms >= Date.parse(INSTANT_RANGE.earliest) && ms <= Date.parse(INSTANT_RANGE.latest)))
    throw new InstantTextError(text, `is outside the times taken, ${INSTANT_RANGE_TEXT}`);
  return { ms, iso: new Date(ms).toISOString() };
}

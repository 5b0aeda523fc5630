/**
 * A float as Python's `repr(float)` (and so `json.dumps`) writes it: the shortest digits that read
 * back to the same double, laid out in fixed notation for decimal exponents from -4 to 15 (always
 * with a fraction: `2.0`, `100000.0`, `-0.0`) and in exponent notation otherwise, with a sign and at
 * least two exponent digits (`1e-07`, `1e+16`, `1.5e+300`). Non-finite values are written as
 * `json.dumps` writes them: `Infinity`, `-Infinity`, `NaN`.
 *
 * JavaScript's `toExponential()` without an argument already gives the shortest round-trip digits
 * (as Python's repr does, both after David Gay); only the layout differs, hence this function.
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const expSign = exponent < 0 ? "-" : "+";
    return `${sign}${digits[0]}${fraction}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const integerDigits = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fractionDigits = digits.slice(exponent + 1);
  return `${sign}${integerDigits}.${fractionDigits.length > 0 ? fractionDigits : "0"}`;
}

import {
  booleanSetting,
  integerSetting,
  oneOfSetting,
  parseSetting,
  patternSetting,
  type Setting,
  variableOf,
} from "../../../contract/index.js";
import type { ContextValue, InfraKnob, InfraSettings } from "../InfraSettings.js";

/** A knob and how its context value is parsed. */
export interface KnobRule extends InfraKnob {
  /** Turns a context value (JSON from cdk.json, or a string from `-c`) into the setting. */
  parse(value: unknown): unknown;
}

const INSTANCE_TYPE = /^ml\.[a-z0-9-]+\.[a-z0-9]+$/;

/** Parses a knob's value with one of the settings kit's schemas. */
export function kit<T>(schema: Setting<T>["schema"]): (value: unknown) => T {
  return (value) => parseSetting({ schema }, value);
}

/** An integer from `min` to `max`. */
export const integer = (min: number, max: number) => kit(integerSetting(min, max));
/** `true` or `false` (a boolean, or its text as `-c` gives it). */
export const boolean = kit(booleanSetting);
/** One of the given words. */
export const oneOf = <const T extends string>(...choices: T[]) => kit(oneOfSetting(choices));
/** Text that matches `pattern`; the message says it must be `what`. */
export const text = (pattern: RegExp, what: string) => kit(patternSetting(pattern, what));

/**
 * A knob that sets a variable of a function or of the adapter: parsed by that setting's own kit
 * entry, so the CDK app accepts exactly what the reader accepts; its default is the entry's unless
 * the app deploys another one (`defaultValue`).
 */
export function setsVariable<T extends ContextValue>(
  name: keyof InfraSettings,
  setting: Setting<T>,
  description: string,
  defaultValue?: T,
): KnobRule {
  const fallback = setting.default;
  const value = defaultValue ?? ("value" in fallback ? fallback.value : undefined);
  if (value === undefined) throw new Error(`knob ${name}: ${variableOf(setting)} has no default to deploy`);
  return {
    name,
    defaultValue: value,
    description,
    variable: variableOf(setting),
    setting,
    parse: kit(setting.schema),
  };
}

/** A SageMaker instance type (`ml.c6i.8xlarge`). */
export function instanceType(value: unknown): string {
  return text(INSTANCE_TYPE, "a SageMaker instance type such as ml.c6i.8xlarge")(value);
}

/** A list of distinct instance types: a JSON array, or comma-separated text. */
export function instanceTypes(value: unknown): string[] {
  const items =
    typeof value === "string"
      ? value.split(",").map((item) => item.trim())
      : Array.isArray(value)
        ? (value as unknown[])
        : undefined;
  if (items === undefined || items.length === 0) {
    throw new Error(
      `must be a list of instance types (a JSON array, or comma-separated), got ${JSON.stringify(value)}`,
    );
  }
  const types = items.map(instanceType);
  if (new Set(types).size !== types.length)
    throw new Error(`lists an instance type twice: ${types.join(", ")}`);
  return types;
}

/** The S3 URI of a model.tar.gz, or of a prefix of unpacked files ending in `/`. */
export function s3ModelUrl(value: unknown): string {
  return text(
    /^s3:\/\/[a-z0-9{}][a-z0-9.{}-]{1,254}\/\S+(?:\.tar\.gz|\/)$/,
    "an s3://bucket/key URI of a .tar.gz, or an s3://bucket/prefix/ ending in / with modelDataCompression=none ({account} and {region} may appear in it)",
  )(value);
}

/** A KMS key's ARN, or `undefined` for empty. */
export function kmsKeyArn(value: unknown): string | undefined {
  if (value === "") return undefined;
  return text(
    /^arn:aws[a-z-]*:kms:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:key\/[0-9a-f-]{36}$/,
    "the ARN of a KMS key (arn:aws:kms:<region>:<account>:key/<id>), or empty",
  )(value);
}

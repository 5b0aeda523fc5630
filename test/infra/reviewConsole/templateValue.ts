/**
 * Resolves a CloudFormation value of a synthesized template (`Ref`, `Fn::GetAtt`, `Fn::Join`,
 * `Fn::Sub` without a variable map) to text, with the given stand-ins for what only a deployment
 * knows: pseudo parameters (`AWS::Region`, …) and the physical ids of resources by logical id.
 * For tests that check a deployed value (an issuer, an audience) as the template will produce it.
 *
 * @throws Error naming a reference without a stand-in, or an intrinsic it does not handle.
 */
export function resolveTemplateValue(value: unknown, standIns: Readonly<Record<string, string>>): string {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) throw new Error(`not a template value: ${String(value)}`);
  const record = value as Record<string, unknown>;
  if ("Ref" in record) return standIn(String(record.Ref), standIns);
  if ("Fn::GetAtt" in record) {
    const [logicalId, attribute] = record["Fn::GetAtt"] as [string, string];
    return standIn(`${logicalId}.${attribute}`, standIns);
  }
  if ("Fn::Join" in record) {
    const [separator, parts] = record["Fn::Join"] as [string, unknown[]];
    return parts.map((part) => resolveTemplateValue(part, standIns)).join(separator);
  }
  if ("Fn::Sub" in record && typeof record["Fn::Sub"] === "string")
    return record["Fn::Sub"].replace(/\$\{([^}]+)\}/g, (_, name: string) => standIn(name, standIns));
  throw new Error(`resolveTemplateValue does not handle ${JSON.stringify(value)}`);
}

function standIn(name: string, standIns: Readonly<Record<string, string>>): string {
  const found = standIns[name];
  if (found === undefined) throw new Error(`no stand-in for ${name}`);
  return found;
}

import type { Lane } from "../../contract/lanes/lanes.js";
import { TemplateResolveError } from "../errors.js";
import type { TemplateResolver } from "./TemplateResolver.js";

/**
 * The deployed functions by the name findings give them (the folder under `functions/`, with the
 * lane for the decide functions) and the logical id's prefix CDK gives each (its construct path):
 * the one table the local stack's IAM enforcement and the rehearsal's declared calls
 * (`lab/rehearsal/deployedFunctions.ts`) find a function's role by.
 */
export const TEMPLATE_FUNCTIONS = {
  "decide (interactive)": "InteractiveDecideHandlerFunction",
  "decide (bulk)": "BulkDecideHandlerFunction",
  ingest: "IngestHandlerFunction",
  results: "JobResultsHandlerFunction",
  jobsMonitor: "JobsMonitorHandlerFunction",
  capacityController: "CapacityControllerHandlerFunction",
  reviewConsole: "ReviewConsoleApiHandlerFunction",
  frontDoor: "FrontDoorHandlerFunction",
  driftMonitor: "DriftMonitorHandlerFunction",
  jobEvents: "JobEventsEnrichmentFunction",
  deliver: "DeliveriesHandlerFunction",
} as const satisfies Record<string, string>;

/** The name of a deployed function, as findings give it. */
export type TemplateFunctionName = keyof typeof TEMPLATE_FUNCTIONS;

/** The decide function of a lane. */
export function decideFunctionOf(lane: Lane): TemplateFunctionName {
  return `decide (${lane})`;
}

/** A deployed function as IAM sees its calls: its logical id, its role, and the session its calls are made in. */
export interface TemplateFunction {
  name: TemplateFunctionName;
  logicalId: string;
  /** The logical id of its execution role. */
  roleLogicalId: string;
  /** The role's ARN (`arn:aws:iam::<account>:role/<role>`). */
  roleArn: string;
  /**
   * The principal Lambda's calls are made as: `arn:aws:sts::<account>:assumed-role/<role>/<function>`
   * (the session is named after the function), as AWS's AccessDeniedException names it.
   */
  sessionArn: string;
}

/**
 * The deployed function of that name in the template: its logical id (the one whose id starts
 * with its prefix), its role, the session its calls are made in.
 * @returns undefined when the template has no such function (a variant without it).
 * @throws TemplateResolveError when its role is not a role of the template.
 */
export function templateFunctionOf(
  resolver: TemplateResolver,
  name: TemplateFunctionName,
): TemplateFunction | undefined {
  const logicalId = resolver
    .logicalIdsOf("AWS::Lambda::Function")
    .find((id) => id.startsWith(TEMPLATE_FUNCTIONS[name]));
  if (logicalId === undefined) return undefined;
  const roleLogicalId = roleOf(resolver, logicalId);
  const { account, partition } = resolver.target;
  const role = resolver.physicalName(roleLogicalId);
  return {
    name,
    logicalId,
    roleLogicalId,
    roleArn: resolver.arnOf(roleLogicalId),
    sessionArn: `arn:${partition}:sts::${account}:assumed-role/${role}/${resolver.physicalName(logicalId)}`,
  };
}

/**
 * The logical id of a function's execution role (`Role: Fn::GetAtt [<role>, Arn]`).
 * @throws TemplateResolveError when it names no role of the template.
 */
export function roleOf(resolver: TemplateResolver, functionId: string): string {
  const role = resolver.resource(functionId).Properties?.Role as
    | { "Fn::GetAtt"?: [string, string] }
    | undefined;
  const roleId = role?.["Fn::GetAtt"]?.[0];
  if (roleId === undefined || resolver.template.Resources[roleId]?.Type !== "AWS::IAM::Role")
    throw new TemplateResolveError(`${functionId}'s role is not a role of the template`);
  return roleId;
}

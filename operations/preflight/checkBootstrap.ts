import { type CloudFormationClient, DescribeStacksCommand, type Stack } from "@aws-sdk/client-cloudformation";
import type { PreflightCheck } from "./PreflightCheck.js";

/** The lowest bootstrap version the stack's assets need (CDK's default synthesizer). */
export const MIN_BOOTSTRAP_VERSION = 6;

/** What {@link checkBootstrap} found. */
export interface BootstrapFinding {
  check: PreflightCheck;
  /** The account, read from the bootstrap stack's ARN, when the stack exists. */
  account: string | undefined;
}

/** Stack states in which the bootstrap resources are usable. */
const USABLE = new Set(["CREATE_COMPLETE", "UPDATE_COMPLETE", "UPDATE_ROLLBACK_COMPLETE", "IMPORT_COMPLETE"]);

/**
 * The bootstrap stack (`cdk bootstrap`) exists in the region, is in a usable state and has a
 * `BootstrapVersion` output of at least {@link MIN_BOOTSTRAP_VERSION}.
 */
export async function checkBootstrap(
  cloudFormation: CloudFormationClient,
  region: string,
  stackName = "CDKToolkit",
): Promise<BootstrapFinding> {
  const name = "bootstrap stack";
  const fix = `run: npx cdk bootstrap aws://<account>/${region}`;
  let stack: Stack | undefined;
  try {
    stack = (await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
  } catch (error) {
    // CloudFormation answers a missing stack with a ValidationError "Stack with id … does not exist".
    if (!(error instanceof Error && /does not exist/.test(error.message))) throw error;
  }
  if (stack === undefined) {
    return {
      check: { name, status: "fail", detail: `no stack ${stackName} in ${region}: ${fix}` },
      account: undefined,
    };
  }
  const account = /^arn:[^:]+:cloudformation:[^:]+:(\d{12}):stack\//.exec(stack.StackId ?? "")?.[1];
  const status = stack.StackStatus ?? "UNKNOWN";
  if (!USABLE.has(status)) {
    return { check: { name, status: "fail", detail: `${stackName} is ${status}: ${fix}` }, account };
  }
  const version = Number(
    stack.Outputs?.find((output) => output.OutputKey === "BootstrapVersion")?.OutputValue,
  );
  if (!Number.isInteger(version)) {
    return {
      check: {
        name,
        status: "warn",
        detail: `${stackName} (${status}) has no BootstrapVersion output: ${fix}`,
      },
      account,
    };
  }
  if (version < MIN_BOOTSTRAP_VERSION) {
    return {
      check: {
        name,
        status: "fail",
        detail: `${stackName} is bootstrap version ${version}; the stack needs ${MIN_BOOTSTRAP_VERSION} or later: ${fix}`,
      },
      account,
    };
  }
  return {
    check: { name, status: "pass", detail: `${stackName} ${status}, bootstrap version ${version}` },
    account,
  };
}

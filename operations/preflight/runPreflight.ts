import type { CloudFormationClient } from "@aws-sdk/client-cloudformation";
import type { S3Client } from "@aws-sdk/client-s3";
import type { ServiceQuotasClient } from "@aws-sdk/client-service-quotas";
import { checkBootstrap } from "./checkBootstrap.js";
import { checkEndpointQuotas } from "./checkEndpointQuotas.js";
import { checkImageRegion } from "./checkImageRegion.js";
import { checkModelData } from "./checkModelData.js";
import type { PreflightCheck, PreflightPlan } from "./PreflightCheck.js";

/** The AWS clients the checks use, all for the deploy region. */
export interface PreflightClients {
  s3: S3Client;
  cloudFormation: CloudFormationClient;
  serviceQuotas: ServiceQuotasClient;
}

/**
 * Checks, before `cdk deploy`, what a first deploy of the plan hits: the bootstrap stack, the model
 * data (and its manifest), the endpoint quota of each pool's instance type, the standard image's
 * region. Read-only calls only (DescribeStacks, HeadBucket, HeadObject, GetObject of the manifest,
 * ListServiceQuotas).
 * @returns every check, in that order; the deploy would fail if any has status `fail`.
 */
export async function runPreflight(
  plan: PreflightPlan,
  clients: PreflightClients,
): Promise<PreflightCheck[]> {
  const bootstrap = await checkBootstrap(clients.cloudFormation, plan.region, plan.bootstrapStackName);
  const checks: PreflightCheck[] = [bootstrap.check];
  const account = plan.account ?? bootstrap.account;
  if (plan.modelDataUrl.includes("{account}") && account === undefined) {
    checks.push({
      name: "model data",
      status: "warn",
      detail: `modelDataUrl ${plan.modelDataUrl} names {account}, which is unknown without the bootstrap stack: give --account`,
    });
  } else {
    const url = plan.modelDataUrl.replaceAll("{account}", account ?? "").replaceAll("{region}", plan.region);
    checks.push(...(await checkModelData(clients.s3, url, plan.region)));
  }
  checks.push(...(await checkEndpointQuotas(clients.serviceQuotas, plan.pools)));
  checks.push(...checkImageRegion(plan.standardImageRegion, plan.region));
  return checks;
}

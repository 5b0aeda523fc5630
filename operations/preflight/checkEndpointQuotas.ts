import { paginateListServiceQuotas, type ServiceQuotasClient } from "@aws-sdk/client-service-quotas";
import type { PreflightCheck } from "./PreflightCheck.js";

/**
 * Each pool's instance type has a SageMaker "<type> for endpoint usage" quota of at least the
 * instances it may run. Instance pools fall back on insufficient capacity, not on a quota error: a
 * pool whose quota is too small fails the deploy (or stops autoscaling short).
 */
export async function checkEndpointQuotas(
  quotas: ServiceQuotasClient,
  pools: ReadonlyArray<{ instanceType: string; instances: number }>,
): Promise<PreflightCheck[]> {
  const values = new Map<string, number>();
  for await (const page of paginateListServiceQuotas({ client: quotas }, { ServiceCode: "sagemaker" })) {
    for (const quota of page.Quotas ?? []) {
      if (quota.QuotaName !== undefined && quota.Value !== undefined)
        values.set(quota.QuotaName, quota.Value);
    }
  }
  const needs = new Map<string, number>();
  for (const pool of pools)
    needs.set(pool.instanceType, Math.max(needs.get(pool.instanceType) ?? 0, pool.instances));
  return [...needs].map(([instanceType, instances]) => {
    const quotaName = `${instanceType} for endpoint usage`;
    const value = values.get(quotaName);
    const name = `endpoint quota ${instanceType}`;
    if (value === undefined) {
      return {
        name,
        status: "fail",
        detail: `Service Quotas lists no "${quotaName}" quota for sagemaker in this region: is ${instanceType} offered here?`,
      };
    }
    if (value < instances) {
      return {
        name,
        status: "fail",
        detail: `"${quotaName}" is ${value}, the stack may run ${instances}: request an increase in Service Quotas (sagemaker) before deploying`,
      };
    }
    return { name, status: "pass", detail: `"${quotaName}" is ${value}, the stack may run ${instances}` };
  });
}

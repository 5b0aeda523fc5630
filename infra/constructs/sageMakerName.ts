/**
 * A SageMaker resource name in lower case: `<stack name, at most 40 characters>-<suffix>`, trailing
 * hyphens of the stem removed. SageMaker forms a resource's ARN with its name in lower case
 * (`arn:…:endpoint/<name in lower case>`), while IAM matches a statement's resource case-sensitively:
 * a grant built from a mixed-case name never matches the ARN of the call, and every InvokeEndpoint or
 * DescribeEndpoint is denied (reported as AccessDeniedException on `…:endpoint/endpoint-setu4993--labse`
 * against a grant for `…LaBSE`: https://github.com/philschmid/cdk-samples/issues/2; and
 * https://github.com/aws-solutions/research-service-workbench-on-aws/pull/1048).
 * A name that is lower case from the start makes the name the code calls with, the name in the
 * grant, and the name in SageMaker's ARN one string.
 *
 * @example sageMakerNameOf("Decisions", "shadow") // "decisions-shadow"
 */
export function sageMakerNameOf(stackName: string, suffix: string): string {
  const stem = stackName.slice(0, 40).replace(/-+$/, "");
  return `${stem}-${suffix}`.toLowerCase();
}

/** A CloudFormation template as `cdk synth` writes it (the parts the local stack and the rehearsal read). */
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, unknown>;
  Parameters?: Record<string, unknown>;
}

/** One resource of a {@link CfnTemplate}. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
}

/** The template's names and ARNs as AWS forms them: shared with the local stack's IAM enforcement (`local/iam`). */
export {
  type CfnResource,
  type CfnTemplate,
  type DeployTarget,
  deployTargetOf,
  TemplateResolver,
} from "../../local/iam/TemplateResolver.js";
